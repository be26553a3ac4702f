import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';
import { ROOT } from './root.js';

export { ROOT };

/** The entry points this test file started that have not exited yet. */
const running = new Set<ChildProcess>();

// A test that fails before it stops its process would leave a server running after the suite
// (still answering, holding its Redis connections): whatever a file started dies with the file.
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** Runs one of the project's TypeScript entry points as a separate process, as a user would. */
export function spawnEntry(entry: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

export function runEntry(entry: string, args: string[], env: Record<string, string>): Promise<Finished> {
  return finished(spawnEntry(entry, args, env));
}

export interface RunningEntry {
  child: ChildProcess;
  /** Settles once the process has exited, with everything it printed. */
  done: Promise<Finished>;
  /** Everything it has printed on stdout so far. */
  logs(): string;
  /** Resolves once stdout shows `text` (`times` times), or rejects once the process exits without. */
  waitForLog(text: string, times?: number): Promise<void>;
}

/**
 * Starts an entry point and resolves once its stdout shows `ready`. No deadline of its own: the
 * test's timeout bounds every wait.
 */
export async function startEntry(
  entry: string,
  args: string[],
  env: Record<string, string>,
  ready: string,
): Promise<RunningEntry> {
  const child = spawnEntry(entry, args, env);
  const done = finished(child);
  let output = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    for (const check of waiters) check();
  });
  const waitForLog = (text: string, times = 1) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.split(text).length - 1 < times) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
      void done.then((result) => {
        if (!waiters.has(check)) return;
        waiters.delete(check);
        reject(new Error(`exited ${result.code} before "${text}": ${output}${result.stderr}`));
      });
    });
  await waitForLog(ready);
  return { child, done, logs: () => output, waitForLog };
}
