import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Every file builds its own database and Redis prefix (test/support/harness.ts), so files run in parallel.
    pool: 'forks',
    // A worker process runs its files one after another with the modules it has imported already:
    // isolated, every file imported the whole application again (326 s of a 1,064 s run on 2 cores;
    // 11 s of 552 s without). Nothing a file needs is module state: its harness is its own.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // As in the production image: onnxruntime (the OCR engine) otherwise leaves a telemetry
    // database under $HOME/.cache and an empty /tmp/mat-debug-<pid>.log for every process that reads.
    env: { ORT_DISABLE_TELEMETRY: '1' },
  },
});
