import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropDatabase, ensureDatabase } from '../../shared/platform/db/ensure-database.js';
import { deleteKeysWithPrefix } from '../support/redis-keys.js';
import { freePort } from '../support/free-port.js';
import { finished, ROOT } from '../support/run-process.js';
import { databaseUrl, TEST_REDIS_URL } from '../support/test-database.js';

// docs/operations.md#running: `npm start` and its siblings `exec` node, so SIGTERM sent to npm
// reaches the server. npm forwards SIGTERM to the shell it ran the script with; dash, Debian's
// `sh`, then dies without passing it on, and the server went on under PID 1 (issue 19).

const url = databaseUrl(`tally_test_npm_start_${randomBytes(4).toString('hex')}`);
const prefix = `test-npm-start-${randomBytes(4).toString('hex')}`;
/** Every process npm started, killed after each test whatever its outcome, so none is left behind. */
const started = new Set<number>();

/**
 * The environment the server is started in: this suite's Node first on PATH, so the server runs on
 * the runtime under test (.ci/run), with this suite's database and Redis.
 */
function serverEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    DATABASE_URL: url,
    REDIS_URL: TEST_REDIS_URL,
    PLATFORM_TOKEN_SECRET: 'npm-start-test',
  };
}

/** npm in the server's environment, its Redis keys under this suite's prefix. */
function npm(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn('npm', args, {
    cwd: ROOT,
    env: {
      ...serverEnv(),
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

beforeAll(async () => {
  await ensureDatabase(url, inject('templateDatabase'));
  // One build for every test below; they run their script with --ignore-scripts, which skips only
  // its `pre` script (this same build).
  const build = await finished(npm(['run', 'build', '--silent']));
  expect(build.code, build.stdout + build.stderr).toBe(0);
}, 300_000);

afterEach(() => {
  for (const pid of [...started].filter(isAlive)) process.kill(pid, 'SIGKILL');
  started.clear();
});

afterAll(async () => {
  await dropDatabase(url);
  await deleteKeysWithPrefix(TEST_REDIS_URL, prefix);
});

/** Resolves with the server's output once it has logged `ready`; rejects if npm exits first. */
function whenLogged(child: ChildProcess, ready: string): { output: () => string; ready: Promise<void> } {
  let output = '';
  const ready$ = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm exited ${code} before "${ready}":\n${output}`)));
  });
  return { output: () => output, ready: ready$ };
}

/** The processes below `root`, from `ps` (Linux and macOS alike). */
function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' }).trim().split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  for (let queue = [root]; queue.length;) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function health(port: number): Promise<number | 'refused'> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`)).status;
  } catch {
    return 'refused';
  }
}

async function expectStopsWithNpm(
  args: string[],
  env: Record<string, string>,
  ready: string,
  port: number,
  whileRunning: () => Promise<void> = async () => {},
) {
  const child = npm(args, env);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server = whenLogged(child, ready);
  await server.ready;
  // npm itself too, so that a test failing before the SIGTERM leaves nothing running.
  for (const pid of [child.pid!, ...descendantsOf(child.pid!)]) started.add(pid);
  expect(await health(port)).toBe(200);
  await whileRunning();

  child.kill('SIGTERM');
  // npm waits for the child it signalled and exits with its status: 0 after a clean drain.
  expect(await exited).toBe(0);
  expect(await health(port)).toBe('refused');
  expect([...started].filter(isAlive)).toEqual([]);
  expect(server.output()).toContain('"msg":"stopped"');
}

/**
 * The README's walk-through as a new user pastes it into bash, with only its one port variable
 * set to the test's port; -e stops at a command that fails. Prints what the API answered.
 */
async function walkThrough(port: number): Promise<string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /## Five-minute walk-through[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  expect(block).toMatch(/^PORT=3000$/m);
  const script = block.replace(/^PORT=3000$/m, `PORT=${port}`);
  const shell = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd: ROOT,
    // The walk-through's CLI calls queue audit jobs: under this suite's prefix, which it deletes.
    env: { ...serverEnv(), REDIS_PREFIX: prefix },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result = await finished(shell);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return result.stdout;
}

describe('SIGTERM to npm stops the server it started', { timeout: 240_000 }, () => {
  it('npm start: the README walk-through works on it; SIGTERM drains it, and nothing answers after', async () => {
    const port = await freePort();
    await expectStopsWithNpm(
      ['start', '--ignore-scripts'],
      { PORT: String(port) },
      'Tally API listening',
      port,
      async () => {
        const answers = (await walkThrough(port))
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as { status: string; data: unknown });
        expect(answers.filter((answer) => answer.status !== 'success')).toEqual([]);
        // Step 6: a purchase of 12.5 gives Alice 12 whole points.
        expect(answers).toContainEqual({ status: 'success', data: expect.objectContaining({ points: 12 }) });
        // Steps 12 and 13: Alice buys the coffee with 10 of them, and the till burns its code.
        expect(answers).toContainEqual({
          status: 'success',
          data: expect.objectContaining({ points: 2, loyaltyCost: 2.5, vouchers: [expect.any(Object)] }),
        });
        expect(answers).toContainEqual({
          status: 'success',
          data: expect.objectContaining({
            burnedAt: expect.any(String),
            code: expect.objectContaining({ value: expect.any(String) }),
          }),
        });
        // Steps 14 to 16 (issue 23): "The README walk-through shows a campaign, an invite and a referred sign-up
        // that earns the referrer points". Bob's view names Alice's code and keeps the French text of his consent;
        // REFERRAL_COMPLETED names the tranche; Alice's 2 points left after the coffee become 52.
        expect(answers).toContainEqual({
          status: 'success',
          data: expect.objectContaining({
            authIdentifier: 'bob',
            referralCodeUsedForRegistration: expect.objectContaining({
              inviteCode: expect.any(String),
              campaign: expect.objectContaining({ name: 'Bring a friend' }),
            }),
            consents: [
              expect.objectContaining({
                checked: true,
                locale: 'fr',
                requestedLocale: 'fr-FR',
                description: 'Envoyez-moi des offres par e-mail',
              }),
            ],
          }),
        });
        expect(answers).toContainEqual({
          status: 'success',
          data: [expect.objectContaining({ payload: expect.objectContaining({ tranche: 'First friend' }) })],
        });
        expect(answers).toContainEqual({ status: 'success', data: expect.objectContaining({ points: 52 }) });
        expect(answers).toContainEqual({
          status: 'success',
          data: { clicks: 1, registrations: 1, completedTranches: 1 },
        });
        // Steps 17 to 19 (issue 21): the 600 asked for is cut by the daily cap of 500 (438 left after the 12 of
        // step 5 and the 50 of step 16, or 500 should the walk-through cross midnight), the wallet shows the Gold
        // tier, the predictions show the earn cap and five expiry periods, and the history names the adjustment as
        // its newest cause.
        const capped = answers.find(
          (answer) =>
            (answer.data as { reactions?: { requestedAmount?: number }[] }).reactions?.[0]?.requestedAmount === 600,
        );
        expect([438, 500]).toContain((capped?.data as { totalPoints: number }).totalPoints);
        expect(answers).toContainEqual({
          status: 'success',
          data: expect.objectContaining({ tier: expect.objectContaining({ id: 'gold', name: 'Gold' }) }),
        });
        expect(answers).toContainEqual({
          status: 'success',
          data: expect.objectContaining({
            pointsEarnPrediction: expect.any(Object),
            pointsExpiryPrediction: { overallSummary: { type: 'EXPIRY', summary: expect.any(Array) } },
          }),
        });
        const history = answers.find(
          (answer) => Array.isArray(answer.data) && (answer.data as { cause?: unknown }[])[0]?.cause,
        );
        expect((history?.data as { cause: unknown }[]).length).toBeGreaterThanOrEqual(5);
        expect((history?.data as { cause: unknown }[])[0]).toMatchObject({
          kind: 'ADJUSTMENT',
          points: 10,
          cause: { type: 'ADJUSTMENT', reason: 'Machine was broken' },
        });
      },
    );
  });

  it('npm run start:worker -- ocr: the OCR worker the Kubernetes manifests scale apart stops too', async () => {
    const port = await freePort();
    await expectStopsWithNpm(
      ['run', 'start:worker', '--ignore-scripts', '--', 'ocr'],
      { WORKER_PORT: String(port) },
      'Tally worker operations',
      port,
    );
  });
});
