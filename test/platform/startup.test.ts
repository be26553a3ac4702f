import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintAdminToken } from '../../shared/platform/auth/admin-token.js';
import { dropDatabase } from '../../shared/platform/db/ensure-database.js';
import { createDatabase } from '../../shared/database.js';
import { createTenant } from '../../shared/tenant-admin/tenant-service.js';
import { PayloadSchemaCompiler } from '../../shared/platform/validation/payload-schema.js';
import { jsonOf } from '../support/harness.js';
import { finished, ROOT, runEntry, spawnEntry } from '../support/run-process.js';
import { databaseUrl, TEST_REDIS_URL } from '../support/test-database.js';
import { deleteKeysWithPrefix } from '../support/redis-keys.js';
import { freePort } from '../support/free-port.js';

const url = databaseUrl(`tally_test_start_${randomBytes(4).toString('hex')}`);
const env = {
  DATABASE_URL: url,
  REDIS_URL: TEST_REDIS_URL,
  PLATFORM_TOKEN_SECRET: 'start-test',
  REDIS_PREFIX: `test-start-${randomBytes(4).toString('hex')}`,
};

afterAll(async () => {
  await dropDatabase(url);
  await deleteKeysWithPrefix(TEST_REDIS_URL, env.REDIS_PREFIX);
});

/**
 * Runs main.ts and resolves once its log shows `ready`, or fails once it exits without; `logs()` is
 * everything it has printed so far. No deadline of its own: the test's timeout bounds the wait.
 */
async function startMain(args: string[], extraEnv: Record<string, string>, ready: string) {
  const child = spawnEntry('main.ts', args, { ...env, ...extraEnv });
  const done = finished(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve();
    });
    void done.then((result) => reject(new Error(`exited ${result.code} before "${ready}": ${output}${result.stderr}`)));
  });
  return { child, done, logs: () => output };
}

// docs/operations.md#running: "When Redis or PostgreSQL is unreachable, start-up fails fast with one line that says which, at which address, and how to start it."
// Every test here starts main.ts under tsx: seconds alone, several times that beside a busy suite.
describe('start-up when a dependency does not answer', { timeout: 90_000 }, () => {
  it('names PostgreSQL, its address and the script that starts it, within 5 s', async () => {
    const result = await runEntry('main.ts', ['all'], {
      ...env,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/tally',
      PORT: '0',
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^tally: PostgreSQL is not answering at 127\.0\.0\.1:1 .*DATABASE_URL.*deploy\/local\/start-postgres\.sh$/,
      ),
    ]);
  });

  it('names Redis, its address and the script that starts it', async () => {
    const result = await runEntry('main.ts', ['all'], { ...env, REDIS_URL: 'redis://127.0.0.1:1', PORT: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^tally: Redis is not answering at 127\.0\.0\.1:1 .*REDIS_URL.*deploy\/local\/start-redis\.sh$/,
    );
  });

  it('a server that accepts the connection and never answers fails start-up within 5 s too', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const result = await runEntry('main.ts', ['all'], { ...env, REDIS_URL: `redis://127.0.0.1:${port}`, PORT: '0' });
      expect(result.code).toBe(1);
      // The configured bound, not the wall time: tsx's own start-up beside a busy suite is no part of it.
      expect(result.stderr.trim()).toMatch(
        new RegExp(`^tally: Redis is not answering at 127\\.0\\.0\\.1:${port} \\(no answer within 4000 ms\\)`),
      );
    } finally {
      silent.close();
    }
  });

  it('a port already in use is one line too, not a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await runEntry('main.ts', ['api'], { ...env, PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `tally: Port ${port} is already in use: stop what listens there, or set PORT`,
      ]);
    } finally {
      taken.close();
    }
  });
});

// docs/operations.md#running: a dependency that answers and refuses, or a malformed or missing
// setting, is one line naming the variable and the real cause, not "not answering" or a stack trace.
describe('start-up when a setting is wrong', { timeout: 90_000 }, () => {
  it.each([
    [
      'a role PostgreSQL does not know',
      { DATABASE_URL: 'postgres://nosuchrole@127.0.0.1:5432/x' },
      'tally: PostgreSQL at 127.0.0.1:5432 refused DATABASE_URL: role "nosuchrole" does not exist (28000)',
    ],
    [
      'a Redis URL of another scheme',
      { REDIS_URL: 'http://127.0.0.1:6379' },
      'tally: REDIS_URL must start with redis:// or rediss://, not http://: expected one such as redis://127.0.0.1:6379',
    ],
    [
      'a database URL that is no URL',
      { DATABASE_URL: 'notaurl' },
      'tally: DATABASE_URL is not a URL: expected one such as postgres://user@127.0.0.1:5432/tally',
    ],
    [
      'no platform secret outside development',
      { PLATFORM_TOKEN_SECRET: '', NODE_ENV: 'production' },
      'tally: PLATFORM_TOKEN_SECRET is not set, and NODE_ENV is "production", not development: set it to the same random secret on every process (openssl rand -base64 32)',
    ],
  ])('%s', async (_case, settings, line) => {
    const result = await runEntry('main.ts', ['api'], { ...env, PORT: '0', ...settings });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([line]);
  });
});

describe('a full start and a graceful stop', { timeout: 90_000 }, () => {
  beforeAll(() => dropDatabase(url));

  it('creates and migrates the database, serves /ready, logs the address, and drains on SIGTERM with exit 0', async () => {
    const port = await freePort();
    const started = await startMain(['all'], { PORT: String(port) }, 'workers started');
    const { child, done } = started;
    // Without a terminal (a pipe here, a log collector in production), every log line is JSON, the first ones
    // saying where the API, its reference and the metrics are, then how many migrations were applied.
    const lines = started
      .logs()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      address: `http://localhost:${port}`,
      reference: `http://localhost:${port}/docs`,
      metrics: `http://localhost:${port}/metrics`,
    });
    expect(lines[1]).toMatchObject({
      msg: expect.stringMatching(/^database migrated: \d+ migrations applied/),
      migrations: expect.any(Number),
      newest: expect.stringMatching(/^Migration\d+$/),
    });

    const ready = await fetch(`http://127.0.0.1:${port}/ready`);
    expect(ready.status).toBe(200);

    // A request in flight when SIGTERM arrives still gets its answer: the handler is still reading
    // its body when the signal comes, and creates the event type after it.
    const orm = await createDatabase(url);
    const tenant = await createTenant(orm.em.fork(), new PayloadSchemaCompiler(), { name: 'Drain', slug: 'drain' });
    await orm.close();
    const token = await mintAdminToken(env.PLATFORM_TOKEN_SECRET, {
      tenantId: tenant.id,
      scopes: ['admin:event_types'],
      subject: 't',
      ttl: '5m',
    });
    const body = JSON.stringify({ name: 'DRAINED', description: 'created during shutdown', isPrivate: false });
    const inFlight = new Promise<number>((resolve, reject) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/event_types',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
          'X-Api-Key': tenant.key,
          Authorization: `Bearer ${token}`,
        },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', reject);
      // The rest of the body is sent only once the process has said it is draining.
      request.write(body.slice(0, 10), () => {
        setTimeout(() => {
          child.kill('SIGTERM');
          void expect
            .poll(() => started.logs(), { timeout: 30_000, interval: 20 })
            .toContain('draining')
            .then(() => request.end(body.slice(10)), reject);
        }, 200);
      });
    });
    expect(await inFlight).toBe(201);
    const result = await done;
    expect(result.code).toBe(0);
    expect(started.logs()).toContain('stopped');
  });

  // docs/operations.md#logs: at a terminal, with LOG_FORMAT unset, "lines for a person", the first saying where
  // the API, its reference and the metrics are.
  it('at a terminal, logs lines for a person: where the API, its reference and the metrics are, then the migrations counted', async () => {
    const terminalUrl = `${url}_terminal`;
    const port = await freePort();
    // `script` gives the process a pseudo-terminal for its stdout, as a person's shell would.
    const child = spawn('script', ['-q', '-e', '-c', 'exec "$TALLY_NODE" --import tsx main.ts all', '/dev/null'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: terminalUrl,
        PORT: String(port),
        LOG_LEVEL: 'info',
        TALLY_NODE: process.execPath,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = finished(child);
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('workers started')) resolve();
        });
        void done.then((result) => reject(new Error(`exited ${result.code} at: ${output}${result.stderr}`)));
      });
      const lines = stripVTControlCharacters(output).trim().split(/\r?\n/);
      const address = `http://localhost:${port}`;
      expect(lines.slice(0, 2)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^\\[\\d\\d:\\d\\d:\\d\\d\\] INFO: Tally API listening on ${address}: its reference on ${address}/docs, metrics on ${address}/metrics routes=all$`,
          ),
        ),
        expect.stringMatching(/ INFO: database migrated: \d+ migrations applied, the newest Migration\d+$/),
      ]);
      for (const line of lines) expect(() => JSON.parse(line)).toThrow();
      // The terminal's process group, as Ctrl-C would reach it: the server drains and stops.
      child.kill('SIGINT');
      expect((await done).code).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await dropDatabase(terminalUrl);
    }
  });

  it('serves only one service when SERVICE is set', async () => {
    const port = await freePort();
    const { child, done } = await startMain(['api'], { PORT: String(port), SERVICE: 'receipts' }, 'listening');
    const document = await jsonOf(await fetch(`http://127.0.0.1:${port}/v1/openapi.json`));
    expect(Object.keys(document.paths)).not.toContain('/v1/event_types');
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('a worker-only process serves /health, /ready and /metrics (with its job outcomes) on WORKER_PORT', async () => {
    const port = await freePort();
    const { child, done, logs } = await startMain(
      ['worker', 'audit'],
      { WORKER_PORT: String(port) },
      'workers started',
    );
    expect(logs()).toContain(`http://localhost:${port}`);
    expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain('tally_queue_jobs');
    expect(metrics).toContain('tally_jobs_total');
    expect((await fetch(`http://127.0.0.1:${port}/v1/event_types`)).status).toBe(404);
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  // docs/operations.md#metrics: "METRICS_PORT keeps /metrics off the public listener".
  it('with METRICS_PORT, /metrics is served there alone, and that server closes on SIGTERM', async () => {
    const { child, done, logs } = await startMain(['api'], { PORT: '0', METRICS_PORT: '0' }, 'listening');
    const lines = logs()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; address?: string; metrics?: string; level: string });
    const listening = lines.find((line) => line.msg.startsWith('Tally API listening'))!;
    const metricsPort = new URL(listening.metrics!).port;
    const publicPort = new URL(listening.address!).port;
    expect(metricsPort).not.toBe(publicPort);
    expect(lines.every((line) => typeof line.level === 'string')).toBe(true);
    expect((await fetch(`http://127.0.0.1:${publicPort}/metrics`)).status).toBe(404);
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('process_cpu_seconds_total');
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
    expect(logs()).toContain('stopped');
  });
});
