import { expect } from 'vitest';
import type { Harness } from './harness.js';
import { finished, spawnEntry } from './run-process.js';
import { startTcpProxy } from './tcp-proxy.js';
import { TEST_REDIS_URL } from './test-database.js';
import { freePort } from './free-port.js';

/** The statement that stores an Idempotency-Key's answer: run only after the request's work has committed. */
const STORE_ANSWER_SQL = 'update idempotency_record set response_status';

/**
 * Sends one request to a real API process (`main.ts api`, reaching the harness's database through
 * a proxy), lets it go as far as storing its Idempotency-Key answer, after its work committed, and
 * kills the process there with SIGKILL. Resolves once the process is gone; the request got no
 * answer. `leaseMs` is the process's idempotency lease, for the retry that takes the claim over.
 */
export async function postKilledBeforeAnswer(
  harness: Harness,
  request: { path: string; headers: Record<string, string>; body: unknown; leaseMs: number },
): Promise<void> {
  const apiProxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  const databaseUrl = new URL(harness.config.databaseUrl);
  databaseUrl.port = String(apiProxy.port);
  const port = await freePort();
  const api = spawnEntry('main.ts', ['api'], {
    PORT: String(port),
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: harness.config.redisPrefix,
    PLATFORM_TOKEN_SECRET: harness.config.platformTokenSecret,
    IDEMPOTENCY_LEASE_MS: String(request.leaseMs),
  });
  const apiDone = finished(api);
  let logs = '';
  api.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  try {
    await expect.poll(() => logs.includes('listening'), { timeout: 60_000, interval: 50 }).toBe(true);
    const answerHeld = apiProxy.holdFrom(STORE_ANSWER_SQL);
    const firstAnswer = fetch(`http://127.0.0.1:${port}${request.path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
    }).then(
      (response) => response.status,
      () => 'no answer',
    );
    await answerHeld;
    api.kill('SIGKILL');
    await apiDone;
    expect(await firstAnswer).toBe('no answer');
  } finally {
    api.kill('SIGKILL');
    await apiProxy.close();
  }
}
