import { randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustPoints } from '../../shared/ledger/adjust-points.js';
import { postKilledBeforeAnswer } from '../support/killed-before-answer.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
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

// decisions §13 "Adjustments": "POST /v1/users/{id}/points-adjustments {points, reason} (admin:users):
// 201 with the ledger entry; points a non-zero integer; a negative one larger than the balance is 422
// InsufficientPointsError." Issue 21: "(admin:users; positive or negative; Idempotency-Key honoured; a
// negative adjustment larger than the balance is 422; audited)".

let harness: Harness;
let workers: Worker[] = [];
let tenant: TestTenant;
let admin: string;

const SUPPORT = 'support@example.com';
/** The idempotency lease, short, so a retry takes over the claim of a request that died. */
const LEASE_MS = 1000;

beforeAll(async () => {
  harness = await createHarness({ idempotencyLeaseMs: LEASE_MS });
  workers = startWorkers(harness.context, ['audit']);
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:tenant'], SUPPORT);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

let memberCount = 0;
async function newMember(): Promise<{ id: string; authIdentifier: string; accountNumber: number }> {
  memberCount += 1;
  return registerMember(harness, tenant, admin, `member-${memberCount}`);
}

const adjust = (member: string, body: unknown, headers: Record<string, string> = {}, token = admin) =>
  harness.request(tenant, 'POST', `/v1/users/${member}/points-adjustments`, { token, body, headers });

const balanceOf = async (userId: string) =>
  (
    await queryOne(harness, 'select coalesce((select points::int from wallet where user_id = ?), 0) as points', [
      userId,
    ])
  ).points as number;
const entriesOf = async (userId: string) =>
  (await queryOne(harness, 'select count(*)::int as n from ledger_entry where user_id = ?', [userId])).n as number;
/** Audit entries of the tenant, staged or recorded, in one snapshot. */
const auditEntries = async () =>
  (
    await queryOne(
      harness,
      `select (select count(*) from audit_outbox where tenant_id = ?)::int
            + (select count(*) from audit_entry where tenant_id = ?)::int as n`,
      [tenant.id, tenant.id],
    )
  ).n as number;

async function refusal(response: Response): Promise<[number, string]> {
  return [response.status, (await jsonOf(response.clone())).data?.name];
}

describe('POST /v1/users/{id}/points-adjustments', () => {
  it('answers 201 with the ledger entry, its cause naming the admin and the reason, and moves the balance', async () => {
    const member = await newMember();
    const response = await adjust(member.authIdentifier, { points: 120, reason: 'Goodwill after a late delivery' });
    expect(response.status).toBe(201);
    const entry = await dataOf<Json>(response);
    expect(entry).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'ADJUSTMENT',
      points: 120,
      createdAt: expect.any(String),
      expiresAt: null,
      cause: { type: 'ADJUSTMENT', reason: 'Goodwill after a late delivery', actor: SUPPORT },
    });
    expect(await balanceOf(member.id)).toBe(120);
    // "positive or negative", the member found by id or account number too.
    const taken = await adjust(String(member.accountNumber), { points: -20, reason: 'Returned goods' });
    expect(taken.status).toBe(201);
    expect(await dataOf<Json>(taken)).toMatchObject({ kind: 'ADJUSTMENT', points: -20 });
    expect((await adjust(member.id, { points: 1, reason: 'Rounding' })).status).toBe(201);
    expect(await balanceOf(member.id)).toBe(101);
    // The history shows the same entry, newest first.
    const history = await dataOf<Json[]>(
      await harness.request(tenant, 'GET', `/v1/users/${member.id}/points-history`, { token: admin }),
    );
    expect(history.map((item) => item.points)).toEqual([1, -20, 120]);
    expect(history[2]).toEqual(entry);
  });

  // "a negative one larger than the balance is 422 InsufficientPointsError"
  it('refuses a negative adjustment larger than the balance with 422 InsufficientPointsError, writing nothing', async () => {
    const member = await newMember();
    await adjust(member.id, { points: 50, reason: 'Welcome' });
    const entries = await entriesOf(member.id);
    const audited = await auditEntries();
    expect(await refusal(await adjust(member.id, { points: -51, reason: 'Too much' }))).toEqual([
      422,
      'InsufficientPointsError',
    ]);
    expect(await balanceOf(member.id)).toBe(50);
    expect(await entriesOf(member.id)).toBe(entries);
    expect(await auditEntries()).toBe(audited);
    // A member who never had a point has nothing to take.
    const empty = await newMember();
    expect(await refusal(await adjust(empty.id, { points: -1, reason: 'Nothing there' }))).toEqual([
      422,
      'InsufficientPointsError',
    ]);
    expect(await entriesOf(empty.id)).toBe(0);
  });

  // "points a non-zero integer"; request bodies are closed schemas.
  it('answers 400 ValidationError for points 0, a fraction, out of range, an unknown field, or a missing or empty reason', async () => {
    const member = await newMember();
    const bad: unknown[] = [
      { points: 0, reason: 'Nothing' },
      { points: 1.5, reason: 'Half' },
      { points: '10', reason: 'Text' },
      { points: 1_000_000_001, reason: 'Too many' },
      { points: 10, reason: 'Extra', actor: 'me' },
      { points: 10 },
      { points: 10, reason: '' },
      { points: 10, reason: 'x'.repeat(501) },
    ];
    for (const body of bad)
      expect([body, await refusal(await adjust(member.id, body))]).toEqual([body, [400, 'ValidationError']]);
    const zero = await jsonOf(await adjust(member.id, { points: 0, reason: 'Nothing' }));
    expect(zero.data.errors.map((issue: Json) => issue.property)).toEqual(['points']);
    expect(await entriesOf(member.id)).toBe(0);
  });

  it('needs admin:users (read:users or a user token is 401), and answers 404 for another tenant’s member', async () => {
    const member = await newMember();
    const reader = await harness.adminToken(tenant, ['read:users']);
    expect((await adjust(member.id, { points: 5, reason: 'x' }, {}, reader)).status).toBe(401);
    const own = await harness.userToken(tenant, member.authIdentifier);
    expect((await adjust(member.id, { points: 5, reason: 'x' }, {}, own)).status).toBe(401);
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:users']);
    const foreign = await harness.request(other, 'POST', `/v1/users/${member.id}/points-adjustments`, {
      token: otherAdmin,
      body: { points: 5, reason: 'x' },
    });
    expect(foreign.status).toBe(404);
    expect(await balanceOf(member.id)).toBe(0);
  });

  // "Idempotency-Key honoured"
  it('answers a retry with the same Idempotency-Key with the first answer, adjusting once; another body is 422', async () => {
    const member = await newMember();
    const headers = { 'Idempotency-Key': `adjust-${randomUUID()}` };
    const first = await adjust(member.id, { points: 40, reason: 'Birthday' }, headers);
    expect(first.status).toBe(201);
    const firstEntry = (await jsonOf(first)).data;
    const again = await adjust(member.id, { points: 40, reason: 'Birthday' }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await jsonOf(again)).data).toEqual(firstEntry);
    expect(await balanceOf(member.id)).toBe(40);
    expect(await entriesOf(member.id)).toBe(1);
    // The entry's id is the one reserved with the key.
    const claim = await queryOne(
      harness,
      'select reserved_id as "reservedId" from idempotency_record where tenant_id = ? order by created_at desc limit 1',
      [tenant.id],
    );
    expect(firstEntry.id).toBe(claim.reservedId);
    expect(await refusal(await adjust(member.id, { points: 41, reason: 'Birthday' }, headers))).toEqual([
      422,
      'IdempotencyKeyReusedError',
    ]);
    expect(await balanceOf(member.id)).toBe(40);
  });

  // "a retry with the same key never adjusts twice", even when the first request's process died after it committed.
  it('the API killed with SIGKILL between the adjustment and its answer: the retry with the key adjusts once', async () => {
    const member = await newMember();
    const key = `killed-${randomUUID()}`;
    const body = { points: 70, reason: 'Goodwill' };
    await postKilledBeforeAnswer(harness, {
      path: `/v1/users/${member.id}/points-adjustments`,
      headers: { 'X-Api-Key': tenant.key, Authorization: `Bearer ${admin}`, 'Idempotency-Key': key },
      body,
      leaseMs: LEASE_MS,
    });
    const claim = () =>
      queryOne(
        harness,
        'select reserved_id as "reservedId", response_status as status, claimed_until < now() as lapsed from idempotency_record where tenant_id = ? order by created_at desc limit 1',
        [tenant.id],
      );
    const { reservedId, status } = await claim();
    expect(status).toBeNull();
    // The first adjustment committed, under the id reserved with the key.
    expect(await queryOne(harness, 'select points::int from ledger_entry where id = ?', [reservedId])).toEqual({
      points: 70,
    });
    await expect.poll(async () => (await claim()).lapsed, { timeout: 10_000 }).toBe(true);
    const retry = await adjust(member.id, body, { 'Idempotency-Key': key });
    expect(retry.status).toBe(201);
    expect((await jsonOf(retry)).data).toMatchObject({ id: reservedId, kind: 'ADJUSTMENT', points: 70 });
    expect(await balanceOf(member.id)).toBe(70);
    expect(await entriesOf(member.id)).toBe(1);
  }, 120_000);

  // A retry that took over a request still running (or one that died past its commit) runs the
  // adjustment again under the same reserved id: it finds the first entry and moves nothing.
  it('adjusts once when the service is asked twice at once under one id, and audits once', async () => {
    const member = await newMember();
    const audited = await auditEntries();
    const request = {
      id: randomUUID(),
      tenantId: tenant.id,
      userId: member.id,
      points: 15,
      reason: 'Twins',
      actor: { subject: SUPPORT, scopes: ['admin:users'] },
    };
    const at = new Date();
    const twins = await Promise.all([
      adjustPoints(harness.context, harness.context.orm.em.fork(), request, at),
      adjustPoints(harness.context, harness.context.orm.em.fork(), request, at),
    ]);
    expect(twins[1]).toEqual(twins[0]);
    expect(twins[0]).toMatchObject({ id: request.id, points: 15 });
    expect(await balanceOf(member.id)).toBe(15);
    expect(await entriesOf(member.id)).toBe(1);
    expect(await auditEntries()).toBe(audited + 1);
  });

  // docs/api-conventions.md#audit-log: "Every change an admin makes is recorded with who made it …"
  it('is audited: who, the action, the member and the entry', async () => {
    const member = await newMember();
    const entry = await dataOf<Json>(await adjust(member.id, { points: 25, reason: 'Survey answered' }));
    const filter = encodeURIComponent(`resourceId:(eq:'${entry.id}')`);
    let logged: Json[] = [];
    await expect
      .poll(
        async () => {
          logged = await dataOf<Json[]>(
            await harness.request(tenant, 'GET', `/v1/audit-log?filter=${filter}`, { token: admin }),
          );
          return logged.length;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(1);
    expect(logged[0]).toMatchObject({
      action: 'points_adjustment.created',
      actor: { subject: SUPPORT },
      resourceType: 'points_adjustment',
      resourceId: entry.id,
      before: null,
      after: { ...entry, userId: member.id },
    });
  });

  // spend-and-adjust.ts: "a debit is one conditional update, so concurrent spends of one balance cannot overspend it".
  it('lets concurrent negative adjustments take no more than the balance', async () => {
    const member = await newMember();
    await adjust(member.id, { points: 100, reason: 'Float' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => adjust(member.id, { points: -30, reason: `Take ${n}` })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422, 422, 422]);
    expect(await balanceOf(member.id)).toBe(10);
    expect(await entriesOf(member.id)).toBe(4);
  });
});
