import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JOB_RUNS, createAdjustmentJob, lineEntryId } from '../../shared/jobs/bulk-adjustments.js';
import { earn } from '../../shared/ledger/ledger.js';
import { recoverStranded, recoveryDependencies } from '../../shared/recovery/recover-stranded.js';
import { pointsAdjustmentsHandler } from '../../workers/points-adjustments.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { givePoints } from '../support/rewards-setup.js';
import { finished, runEntry, spawnEntry } from '../support/run-process.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';

// Issue 21: "Bulk adjustments: `POST /v1/points-adjustments/bulk` accepts up to 100,000
// `{member, points, reason}` lines (JSON or CSV), answers 202 with a job id at once, and a BullMQ job
// applies them in batches, exactly once per line even if the worker is killed and the job retried;
// `GET /v1/jobs/{id}` shows progress (done, failed with each line's reason, total)".

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

let memberCount = 0;
async function member(): Promise<{ id: string; authIdentifier: string; accountNumber: number }> {
  memberCount += 1;
  return registerMember(harness, tenant, admin, `bulk-member-${memberCount}`);
}

function postBulk(body: unknown, options: { csv?: string; headers?: Record<string, string>; token?: string } = {}) {
  const token = options.token ?? admin;
  if (options.csv !== undefined)
    return harness.request(tenant, 'POST', '/v1/points-adjustments/bulk', {
      token,
      rawBody: options.csv,
      headers: { 'Content-Type': 'text/csv', ...options.headers },
    });
  return harness.request(tenant, 'POST', '/v1/points-adjustments/bulk', {
    token,
    body,
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

async function jobOf(jobId: string, token = admin): Promise<Json> {
  return dataOf(await harness.request(tenant, 'GET', `/v1/jobs/${jobId}`, { token }));
}

/** Starts this file's worker the first time a test needs the jobs applied. */
function startWorker(): void {
  if (workers.length === 0) workers = startWorkers(harness.context, ['points-adjustments']);
}

/**
 * A job stored as POST would store it, but queued on a queue nobody reads: as if the process died
 * before queueing it, or for a test that runs the handler itself. Resolves to its id.
 */
async function storeUnqueuedJob(lines: { member: string; points: number; reason: string }[]): Promise<string> {
  const jobId = randomUUID();
  const nowhere = { add: async () => undefined } as never;
  await createAdjustmentJob(
    { ...harness.context, queues: { audit: harness.context.queues.audit, 'points-adjustments': nowhere } },
    harness.context.orm.em.fork(),
    tenant.id,
    { subject: 'test-admin', scopes: ['admin:users'] },
    lines,
    jobId,
  );
  return jobId;
}

async function completed(jobId: string): Promise<Json> {
  startWorker();
  await expect.poll(async () => (await jobOf(jobId)).status, { timeout: 30_000, interval: 20 }).toBe('completed');
  return jobOf(jobId);
}

const balanceOf = async (userId: string) =>
  (await queryOne(harness, 'select coalesce(sum(points), 0)::int as points from wallet where user_id = ?', [userId]))
    .points as number;

describe('POST /v1/points-adjustments/bulk', () => {
  // decisions §13: "`POST /v1/points-adjustments/bulk` (`admin:users`) with `{lines: [{member, points,
  // reason}]}` … at most 100,000 lines: 202 `{jobId}`".
  it('answers 202 with a job id at once, before any worker ran, and the job shows queued with its total', async () => {
    const alice = await member();
    const response = await postBulk({ lines: [{ member: alice.id, points: 40, reason: 'Welcome' }] });
    expect(response.status).toBe(202);
    const { jobId } = await dataOf<{ jobId: string }>(response);
    expect(await jobOf(jobId)).toMatchObject({
      id: jobId,
      kind: 'POINTS_ADJUSTMENT',
      status: 'queued',
      total: 1,
      done: 0,
      failed: 0,
      errors: [],
    });
    expect(await harness.context.queues['points-adjustments'].getJob(`points-adjustment-${jobId}`)).toBeDefined();
    expect(await completed(jobId)).toMatchObject({ status: 'completed', total: 1, done: 1, failed: 0 });
    expect(await balanceOf(alice.id)).toBe(40);
  });

  // decisions §13: "`member` is an id, authIdentifier or accountNumber"; GET /v1/jobs/{id}: "{id, kind,
  // status, total, done, failed, errors: [{line, message}]}".
  // docs/api-conventions.md#audit-log: "Every change an admin makes is recorded with who made it …"; the job
  // is the change, each line's entry names it (jobId).
  it('audits the job: who asked for how many lines, in the transaction that stores it', async () => {
    const a = await member();
    const response = await postBulk({ lines: [{ member: a.id, points: 4, reason: 'audited' }] });
    const { jobId } = await dataOf<{ jobId: string }>(response);
    expect(
      await queryOne(
        harness,
        `select job->>'action' as action, job->'actor'->>'subject' as subject, job->'after' as after
           from audit_outbox where job->>'resourceId' = ?
         union all
         select action, actor_subject, after from audit_entry where resource_id = ?`,
        [jobId, jobId],
      ),
    ).toEqual({
      action: 'points_adjustment_job.created',
      subject: 'test-admin',
      after: { id: jobId, kind: 'POINTS_ADJUSTMENT', total: 1 },
    });
  });

  it('applies JSON lines by id, authIdentifier and accountNumber, and lists each failed line with its number and reason', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await givePoints(harness, tenant, c.id, 10);
    const { jobId } = await dataOf<{ jobId: string }>(
      await postBulk({
        lines: [
          { member: a.id, points: 100, reason: 'by id' },
          { member: b.authIdentifier, points: 50, reason: 'by authIdentifier' },
          { member: String(c.accountNumber), points: 5, reason: 'by accountNumber' },
          { member: 'nobody-here', points: 7, reason: 'unknown' },
          { member: c.id, points: -30, reason: 'more than the balance' },
          { member: b.id, points: -20, reason: 'within the balance' },
        ],
      }),
    );
    const job = await completed(jobId);
    expect(job).toMatchObject({ total: 6, done: 4, failed: 2 });
    expect(job.errors).toEqual([
      { line: 4, message: 'no member nobody-here in the tenant' },
      { line: 5, message: "The member's balance is less than the 30 points asked for" },
    ]);
    expect(job.finishedAt).toEqual(expect.any(String));
    expect([await balanceOf(a.id), await balanceOf(b.id), await balanceOf(c.id)]).toEqual([100, 30, 15]);
    const entry = await queryOne(
      harness,
      `select kind, points::int, reason, actor, job_id as "jobId" from ledger_entry where id = ?`,
      [lineEntryId(jobId, 2)],
    );
    expect(entry).toEqual({ kind: 'ADJUSTMENT', points: 50, reason: 'by authIdentifier', actor: 'test-admin', jobId });
  });

  // decisions §13: "(or `text/csv` with the header `member,points,reason` …)".
  it('takes text/csv with the header member,points,reason, quoted fields and spaces around fields included', async () => {
    const [a, b] = [await member(), await member()];
    const csv = `member,points,reason\r\n${a.authIdentifier},25,"Goodwill, for the ""late"" parcel"\r\n ${b.accountNumber} , -1 , Too much\r\n\r\n`;
    const response = await postBulk(undefined, { csv });
    expect(response.status).toBe(202);
    const job = await completed((await dataOf<{ jobId: string }>(response)).jobId);
    expect(job).toMatchObject({ total: 2, done: 1, failed: 1 });
    expect(job.errors).toEqual([{ line: 2, message: "The member's balance is less than the 1 points asked for" }]);
    const entry = await queryOne(harness, `select reason from ledger_entry where user_id = ?`, [a.id]);
    expect(entry.reason).toBe('Goodwill, for the "late" parcel');
  });

  it("applies one member's lines in their order, each seeing the balance the one before left", async () => {
    const a = await member();
    const { jobId } = await dataOf<{ jobId: string }>(
      await postBulk({
        lines: [
          { member: a.id, points: -5, reason: 'nothing to take yet' },
          { member: a.id, points: 10, reason: 'first credit' },
          { member: a.id, points: -8, reason: 'taken' },
          { member: a.id, points: -5, reason: 'only 2 left' },
          { member: a.id, points: 3, reason: 'second credit' },
          { member: a.id, points: -5, reason: 'now 5 are there' },
        ],
      }),
    );
    const job = await completed(jobId);
    expect(job).toMatchObject({ done: 4, failed: 2 });
    expect(job.errors.map((error: { line: number }) => error.line)).toEqual([1, 4]);
    expect(await balanceOf(a.id)).toBe(0);
    const ledger = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute<{ points: number }[]>('select points::int from ledger_entry where job_id = ? order by created_at, id', [
        jobId,
      ]);
    expect(ledger.map((row) => row.points).sort((x, y) => x - y)).toEqual([-8, -5, 3, 10]);
  });

  // docs/points.md#expiry: every debit takes from the expiring lots first.
  it('takes a negative line from the expiring lots, soonest first', async () => {
    const expiring = await harness.createTenant({ configuration: { pointsExpiry: { afterDays: 30 } } });
    const token = await harness.adminToken(expiring, ['admin:users']);
    const m = await registerMember(harness, expiring, token, 'lots-member');
    const at = new Date(harness.context.clock.now());
    await harness.context.orm.em
      .fork()
      .getKnex()
      .transaction((trx) =>
        earn(
          trx,
          [{ tenantId: expiring.id, userId: m.id, points: 60, cause: { eventId: 9_800_001, reactorId: randomUUID() } }],
          at,
        ),
      );
    const response = await harness.request(expiring, 'POST', '/v1/points-adjustments/bulk', {
      token,
      body: { lines: [{ member: m.id, points: -45, reason: 'correction' }] },
    });
    const { jobId } = await dataOf<{ jobId: string }>(response);
    startWorker();
    await expect
      .poll(
        async () => (await dataOf<Json>(await harness.request(expiring, 'GET', `/v1/jobs/${jobId}`, { token }))).status,
        { timeout: 30_000, interval: 20 },
      )
      .toBe('completed');
    const lot = await queryOne(harness, 'select remaining::int from points_lot where user_id = ?', [m.id]);
    expect(lot.remaining).toBe(15);
    expect(await balanceOf(m.id)).toBe(15);
  });

  // decisions §13: "at most 100,000 lines".
  it('refuses 100,001 lines with 400 and stores no job', async () => {
    const before = await queryOne(harness, 'select count(*)::int as n from job');
    const lines = Array.from({ length: 100_001 }, (_, i) => ({ member: `m${i}`, points: 1, reason: 'r' }));
    const response = await postBulk({ lines });
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data.name).toBe('ValidationError');
    expect((await queryOne(harness, 'select count(*)::int as n from job')).n).toBe(before.n);
  });

  // Issue 21 brief: "a malformed line is a 400 naming its line".
  it.each([
    ['a line of two fields', 'member,points,reason\na,1,x\nb,2\n', 'Line 2 has 2 fields, not 3'],
    [
      'points that are no whole number',
      'member,points,reason\na,1,x\nb,1.5,y\n',
      'Line 2: points must be a whole number',
    ],
    ['points of 0', 'member,points,reason\na,0,x\n', 'Line 1: points'],
    ['an empty reason', 'member,points,reason\na,3,x\nb,3,x\nc,3,\n', 'Line 3: reason'],
    ['an unclosed quote', 'member,points,reason\na,1,x\nb,2,"never closed\n', 'Line 2 is not valid CSV'],
  ])('refuses a CSV with %s: 400 naming the line', async (_name, csv, message) => {
    const response = await postBulk(undefined, { csv });
    expect(response.status).toBe(400);
    const { data } = await jsonOf(response);
    expect(data.name).toBe('ValidationError');
    expect(data.message).toContain(message);
  });

  it('refuses a CSV without the header, and a JSON line outside its schema', async () => {
    const noHeader = await postBulk(undefined, { csv: 'a,1,x\n' });
    expect(noHeader.status).toBe(400);
    expect((await jsonOf(noHeader)).data.message).toContain('header member,points,reason');
    const extra = await postBulk({ lines: [{ member: 'a', points: 1, reason: 'x', note: 'no' }] });
    expect(extra.status).toBe(400);
    const zero = await postBulk({ lines: [{ member: 'a', points: 0, reason: 'x' }] });
    expect(zero.status).toBe(400);
  });

  // docs/api-conventions.md#idempotency.
  it('with the same Idempotency-Key again answers the same job id and applies the lines once', async () => {
    const a = await member();
    const body = { lines: [{ member: a.id, points: 12, reason: 'once' }] };
    const headers = { 'Idempotency-Key': `bulk-${randomUUID()}` };
    const first = await postBulk(body, { headers });
    const { jobId } = await dataOf<{ jobId: string }>(first);
    await completed(jobId);
    const again = await postBulk(body, { headers });
    expect(again.status).toBe(202);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await dataOf<{ jobId: string }>(again)).jobId).toBe(jobId);
    expect((await queryOne(harness, 'select count(*)::int as n from job where id = ?', [jobId])).n).toBe(1);
    expect(await balanceOf(a.id)).toBe(12);
  });

  it("needs admin:users, and another tenant's job is 404", async () => {
    const wrongScope = await harness.adminToken(tenant, ['admin:rewards']);
    expect((await postBulk({ lines: [{ member: 'a', points: 1, reason: 'x' }] }, { token: wrongScope })).status).toBe(
      401,
    );
    const a = await member();
    const { jobId } = await dataOf<{ jobId: string }>(
      await postBulk({ lines: [{ member: a.id, points: 1, reason: 'x' }] }),
    );
    expect((await harness.request(tenant, 'GET', `/v1/jobs/${jobId}`, { token: wrongScope })).status).toBe(401);
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:users']);
    const elsewhere = await harness.request(other, 'GET', `/v1/jobs/${jobId}`, { token: otherAdmin });
    expect(elsewhere.status).toBe(404);
    expect((await harness.request(tenant, 'GET', `/v1/jobs/${randomUUID()}`, { token: admin })).status).toBe(404);
  });

  // docs/operations.md#durability: what is answered 202 is never lost.
  it('a job committed but never queued (the process died in between) is queued by the recovery sweep', async () => {
    const a = await member();
    // Queued on a queue nobody reads: as if the process died before queueing it.
    const jobId = await storeUnqueuedJob([{ member: a.id, points: 9, reason: 'stranded' }]);
    expect(await harness.context.queues['points-adjustments'].getJob(`points-adjustment-${jobId}`)).toBeUndefined();
    const recovered = await recoverStranded(recoveryDependencies(harness.context), 0);
    expect(recovered.jobs).toBeGreaterThanOrEqual(1);
    expect(await completed(jobId)).toMatchObject({ done: 1 });
    expect(await balanceOf(a.id)).toBe(9);
  });
  // decisions §13: "status: 'queued'|'running'|'completed'|'failed'".
  it('a job that throws is retried from its cursor, and marked failed after its last attempt', async () => {
    const a = await member();
    // A line no request could store (points 0, refused by the ledger): every attempt throws.
    const jobId = await storeUnqueuedJob([{ member: a.id, points: 0, reason: 'cannot apply' }]);
    const handle = pointsAdjustmentsHandler(harness.context);
    const attempt = (made: number) => ({ attemptsMade: made, opts: { attempts: 10 } }) as never;
    await expect(handle({ tenantId: tenant.id, jobId }, attempt(0))).rejects.toThrow(RangeError);
    expect((await jobOf(jobId)).status).toBe('queued');
    await expect(handle({ tenantId: tenant.id, jobId }, attempt(9))).rejects.toThrow(RangeError);
    const job = await jobOf(jobId);
    expect(job).toMatchObject({ status: 'failed', done: 0, failed: 0, total: 1 });
    expect(job.finishedAt).toEqual(expect.any(String));
  });

  // A run that kills its worker never reaches its catch: BullMQ fails it as stalled, and the recovery sweep
  // queues it again. decisions §13's `failed` must come all the same, not an endless `running`.
  it(`gives a job up as failed once it was taken up ${MAX_JOB_RUNS} times, applying nothing more`, async () => {
    const a = await member();
    const jobId = await storeUnqueuedJob([{ member: a.id, points: 7, reason: 'never applied' }]);
    // As if each earlier run had died with its worker.
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute(`update job set runs = ?, status = 'running' where id = ?`, [MAX_JOB_RUNS, jobId]);
    await pointsAdjustmentsHandler(harness.context)({ tenantId: tenant.id, jobId }, {
      attemptsMade: 0,
      opts: { attempts: 10 },
    } as never);
    expect(await jobOf(jobId)).toMatchObject({ status: 'failed', done: 0, failed: 0, total: 1 });
    expect(await balanceOf(a.id)).toBe(0);
  });
});

// Issue 21: "`tally` gains `points adjust --file F` that uploads and prints progress until done".
describe('tally points adjust --file', { timeout: 90_000 }, () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tally-bulk-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const tally = (...args: string[]) =>
    runEntry('cli/tally.ts', args, {
      DATABASE_URL: harness.config.databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: harness.config.redisPrefix,
      PLATFORM_TOKEN_SECRET: harness.config.platformTokenSecret,
      LOG_LEVEL: 'warn',
    });

  async function file(name: string, content: string): Promise<string> {
    const path = join(folder, name);
    await writeFile(path, content);
    return path;
  }

  it('uploads a CSV file, prints progress on stderr until the job is done, and the job as JSON on stdout', async () => {
    startWorker();
    const [a, b] = [await member(), await member()];
    const path = await file(
      'adjust.csv',
      `member,points,reason\n${a.authIdentifier},30,From the CLI\nnobody,5,Unknown\n${b.id},-1,Too much\n`,
    );
    const result = await tally('points', 'adjust', '--tenant', tenant.slug, '--file', path);
    expect(result.code, result.stderr).toBe(0);
    const job = JSON.parse(result.stdout);
    expect(job).toMatchObject({ kind: 'POINTS_ADJUSTMENT', status: 'completed', total: 3, done: 1, failed: 2 });
    expect(job.errors.map((error: { line: number }) => error.line)).toEqual([2, 3]);
    expect(result.stderr).toContain(`job ${job.id}: completed, 3 of 3 lines handled (1 applied, 2 failed)`);
    expect(await balanceOf(a.id)).toBe(30);
    const entry = await queryOne(harness, 'select actor from ledger_entry where job_id = ?', [job.id]);
    expect(entry.actor).toBe('cli');
  });

  it('uploads a JSON file', async () => {
    startWorker();
    const a = await member();
    const path = await file('adjust.json', JSON.stringify({ lines: [{ member: a.id, points: 8, reason: 'json' }] }));
    const result = await tally('points', 'adjust', '--tenant', tenant.slug, '--file', path);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', done: 1, failed: 0 });
    expect(await balanceOf(a.id)).toBe(8);
  });

  it('refuses a malformed file naming its line, and stores no job', async () => {
    const before = await queryOne(harness, 'select count(*)::int as n from job');
    const path = await file('bad.csv', 'member,points,reason\na,1,x\nb,many,y\n');
    const result = await tally('points', 'adjust', '--tenant', tenant.slug, '--file', path);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Line 2: points must be a whole number');
    expect((await queryOne(harness, 'select count(*)::int as n from job')).n).toBe(before.n);
  });

  it('exits 1 when the job failed', async () => {
    // No worker takes the job: it is marked failed as a job whose retries ran out would be.
    await closeWorkers(workers);
    workers = [];
    const a = await member();
    const path = await file('fails.csv', `member,points,reason\n${a.id},1,x\n`);
    const running = tally('points', 'adjust', '--tenant', tenant.slug, '--file', path);
    await expect
      .poll(
        async () =>
          (
            await harness.context.orm.em
              .fork()
              .getConnection()
              .execute(`update job set status = 'failed' where actor = 'cli' and status = 'queued' returning id`)
          ).length,
        { timeout: 60_000, interval: 50 },
      )
      .toBe(1);
    const result = await running;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/job [0-9a-f-]+ failed after 0 of 1 lines/);
  });
});

// Issue 21: "exactly once per line even if the worker is killed and the job retried".
describe('a bulk adjustment whose worker is killed', () => {
  // Only the spawned workers below may take its job.
  beforeAll(async () => {
    await closeWorkers(workers);
    workers = [];
  });

  it('a worker killed with SIGKILL mid-job and restarted applies every line exactly once', async () => {
    const killed = await harness.createTenant();
    const token = await harness.adminToken(killed, ['admin:users']);
    const members: { id: string }[] = [];
    for (let i = 0; i < 20; i += 1) members.push(await registerMember(harness, killed, token, `killed-${i}`));
    const count = 4000;
    // Each member: +10, then -3, -3, -3, -3 … so a line applied twice or skipped shows in the sums.
    const lines = Array.from({ length: count }, (_, i) => {
      const m = members[i % members.length]!;
      const turn = Math.floor(i / members.length);
      return { member: m.id, points: turn % 4 === 0 ? 10 : -3, reason: `line ${i + 1}` };
    });
    const response = await harness.request(killed, 'POST', '/v1/points-adjustments/bulk', { token, body: { lines } });
    expect(response.status).toBe(202);
    const { jobId } = await dataOf<{ jobId: string }>(response);
    const cursor = async () =>
      (await queryOne(harness, 'select cursor, status from job where id = ?', [jobId])) as {
        cursor: number;
        status: string;
      };

    const env = {
      DATABASE_URL: harness.config.databaseUrl,
      REDIS_PREFIX: harness.config.redisPrefix,
      PLATFORM_TOKEN_SECRET: 'x',
      LOG_LEVEL: 'warn',
      WORKER_PORT: '0',
      WORKER_LOCK_MS: '1000',
      WORKER_STALLED_CHECK_MS: '500',
      POINTS_ADJUSTMENT_BATCH: '50',
    };
    const first = spawnEntry('main.ts', ['worker', 'points-adjustments'], env);
    const firstDone = finished(first);
    await expect.poll(async () => (await cursor()).cursor, { timeout: 60_000, interval: 10 }).toBeGreaterThan(0);
    first.kill('SIGKILL');
    await firstDone;
    const atKill = await cursor();
    expect(atKill.cursor).toBeLessThan(count);

    const second = spawnEntry('main.ts', ['worker', 'points-adjustments'], env);
    const secondDone = finished(second);
    try {
      await expect.poll(async () => (await cursor()).status, { timeout: 120_000, interval: 100 }).toBe('completed');
    } finally {
      second.kill('SIGTERM');
      await secondDone;
    }
    const job = await dataOf<Json>(await harness.request(killed, 'GET', `/v1/jobs/${jobId}`, { token }));
    expect(job.done + job.failed).toBe(count);
    expect(job.total).toBe(count);
    // Per member: 200 lines in 50 runs of (+10, -3, -3, -3): every line applies, 1 point each run left.
    expect(job.failed).toBe(0);
    const sums = await queryOne(
      harness,
      `select (select count(*)::int from ledger_entry where job_id = ?) as entries,
              (select count(distinct id)::int from ledger_entry where job_id = ?) as distinct_entries,
              (select coalesce(sum(points), 0)::int from ledger_entry where tenant_id = ?) as ledger,
              (select coalesce(sum(points), 0)::int from wallet where tenant_id = ?) as wallets`,
      [jobId, jobId, killed.id, killed.id],
    );
    expect(sums).toEqual({ entries: count, distinct_entries: count, ledger: 20 * 50, wallets: 20 * 50 });
    const perMember = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute<{ equal: boolean }[]>(
        `select w.points = coalesce((select sum(points) from ledger_entry le where le.user_id = w.user_id), 0) as equal
           from wallet w where w.tenant_id = ?`,
        [killed.id],
      );
    expect(perMember.every((row) => row.equal)).toBe(true);
    const expectedIds = Array.from({ length: count }, (_, i) => lineEntryId(jobId, i + 1));
    const present = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>('select id from ledger_entry where job_id = ?', [jobId]);
    expect(present.map((row) => row.id).sort()).toEqual(expectedIds.sort());
  }, 240_000);
});
