import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestTenant } from '../support/harness.js';
import { startEntry } from '../support/run-process.js';

let harness: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
});
afterAll(() => harness.close());

interface Outcome {
  status?: number;
  connection?: string;
  error?: string;
}

/** GET /health through `pool`, as what came back: a status and its Connection header, or an error code. */
async function health(pool: Pool): Promise<Outcome> {
  try {
    const response = await pool.request({ method: 'GET', path: '/health' });
    await response.body.dump();
    return { status: response.statusCode, connection: String(response.headers.connection) };
  } catch (error) {
    const { code, cause } = error as { code?: string; cause?: { code?: string } };
    return { error: cause?.code ?? code ?? String(error) };
  }
}

/**
 * POST /v1/event_types on a keep-alive connection, its body held back until `release` resolves: a
 * request in flight when the signal comes.
 */
function heldRequest(port: number, token: string, release: Promise<void>): Promise<Outcome> {
  const body = JSON.stringify({ name: 'DRAINED', description: 'created while draining', isPrivate: false });
  return new Promise((resolve) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/event_types',
      agent: new HttpAgent({ keepAlive: true }),
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
        'X-Api-Key': tenant.key,
        Authorization: `Bearer ${token}`,
      },
    });
    request.on('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode, connection: response.headers.connection });
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.write(body.slice(0, 10), () => void release.then(() => request.end(body.slice(10))));
  });
}

// docs/operations.md#shutdown: "Every answer from then on carries `Connection: close` and its
// connection closes after it … A connection idle when the signal comes is not cut".
describe('SIGTERM under keep-alive load', { timeout: 120_000 }, () => {
  it('answers what was in flight or written to an open connection, closes each connection after its answer, and exits 0 within its drain', async () => {
    const service = await startEntry(
      'main.ts',
      ['api'],
      {
        DATABASE_URL: harness.config.databaseUrl,
        REDIS_URL: harness.config.redisUrl,
        REDIS_PREFIX: harness.config.redisPrefix,
        PLATFORM_TOKEN_SECRET: harness.config.platformTokenSecret,
        PORT: '0',
        SHUTDOWN_TIMEOUT_MS: '20000',
      },
      'listening',
    );
    const port = Number(/listening on http:\/\/localhost:(\d+)/.exec(service.logs())![1]);
    const origin = `http://127.0.0.1:${port}`;
    const busy = new Pool(origin, { connections: 4 });
    const idle = new Pool(origin, { connections: 3 });
    try {
      // Load on four keep-alive connections, eight requests at a time, until the server refuses new connections.
      const load: Outcome[] = [];
      let stopped = false;
      const loops = Array.from({ length: 8 }, async () => {
        while (!stopped) {
          const outcome = await health(busy);
          load.push(outcome);
          if (outcome.error) return;
        }
      });
      // Three connections left idle, open and known to the client as reusable.
      expect(await Promise.all([health(idle), health(idle), health(idle)])).toEqual(
        Array(3).fill({ status: 200, connection: 'keep-alive' }),
      );
      const token = await harness.adminToken(tenant, ['admin:event_types']);
      let release = () => {};
      const held = heldRequest(port, token, new Promise((resolve) => (release = resolve)));
      await expect.poll(() => load.length).toBeGreaterThan(50);

      service.child.kill('SIGTERM');
      await service.waitForLog('draining');
      // Written to connections that were idle as the drain began: answered, and closed after.
      const written = await Promise.all([health(idle), health(idle), health(idle)]);
      release();
      expect(written).toEqual(Array(3).fill({ status: 200, connection: 'close' }));
      expect(await held).toEqual({ status: 201, connection: 'close' });
      const result = await service.done;
      stopped = true;
      await Promise.all(loops);

      // Every request written was answered; the only failure is a new connection refused once the
      // server stopped listening, which a client retries elsewhere.
      const failures = load.filter((outcome) => outcome.error);
      expect(failures.every((outcome) => outcome.error === 'ECONNREFUSED')).toBe(true);
      expect(load.filter((outcome) => outcome.status === 200 && outcome.connection === 'close').length).toBeGreaterThan(
        0,
      );
      // Within its bound: the drain's share of SHUTDOWN_TIMEOUT_MS; past it the process exits 1.
      expect(result.code).toBe(0);
      expect(service.logs()).toContain('"drainMs":16000');
      expect(service.logs()).toContain('"msg":"stopped"');
    } finally {
      service.child.kill('SIGKILL');
      await Promise.all([busy.destroy(), idle.destroy()]);
    }
  });
});
