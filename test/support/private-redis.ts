import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';

export interface PrivateRedis {
  url: string;
  /** A connection of the test's own, for what the test does to this Redis; it reconnects after a restart. */
  client: Redis;
  /** SIGKILL, as a crash: what the append-only file holds survives it. */
  kill(): Promise<void>;
  /** Starts it again on the same port and files. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A Redis server of one test file's own, for a test that does to Redis what would disturb the
 * other files' use of the shared one (killing it, flushing its scripts). It persists as the
 * shipped configuration does (docs/operations.md#durability); tests fsync every write
 * (`appendfsync: 'always'`, the default here), so that a test's outcome does not depend on when
 * the last second's writes reached the disk, and the benchmark fsyncs every second, as shipped.
 */
export async function startPrivateRedis({
  appendfsync = 'always',
}: { appendfsync?: 'always' | 'everysec' } = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tally-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess;
  let exited: Promise<void>;
  const start = async () => {
    const options = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      appendfsync,
      '--maxmemory-policy',
      'noeviction',
    ];
    server = spawn('redis-server', options, { stdio: 'ignore' });
    exited = new Promise((resolve) => server.once('exit', () => resolve()));
    await answers(url);
  };
  const signal = async (name: NodeJS.Signals) => {
    server.kill(name);
    await exited;
  };
  await start();
  const client = new Redis(url, { maxRetriesPerRequest: 0 });
  // It reconnects by itself after a restart; its refused attempts meanwhile are expected.
  client.on('error', () => {});
  return {
    url,
    client,
    kill: () => signal('SIGKILL'),
    restart: start,
    async stop() {
      client.disconnect();
      await signal('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once a Redis at `url` answers PING (within about two seconds). */
async function answers(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {}); // a refusal while the server starts: connect() rejects, and we try again
    try {
      await probe.connect();
      await probe.ping();
      return;
    } catch (error) {
      if (attempt === 100) throw error;
      await sleep(20);
    } finally {
      probe.disconnect();
    }
  }
}
