import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

export interface PrivateRedis {
  url: string;
  /** A connection of the test's own, for what the test does to this Redis. */
  client: Redis;
  stop(): Promise<void>;
}

/**
 * A Redis server of one test file's own, for a test that does to Redis what would disturb the
 * other files' use of the shared one (flushing its scripts, say). Nothing persists.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  for (let attempt = 0; ; attempt++) {
    try {
      await client.connect();
      break;
    } catch (error) {
      if (attempt === 50) throw error;
      await sleep(20);
    }
  }
  return {
    url,
    client,
    async stop() {
      client.disconnect();
      server.kill('SIGTERM');
      await exited;
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
