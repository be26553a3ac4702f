import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorOf } from '../../shared/audit/audit-log.js';
import { givePoints, poolCodeFor } from '../support/rewards-setup.js';
import { purchase } from '../../shared/rewards/purchase-service.js';
import { CODE_SUMMARY_SQL } from '../../shared/rewards/code-pool.js';
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

let harness: Harness;
let tenant: TestTenant;
let other: TestTenant;
let admin: string;
let otherAdmin: string;

beforeAll(async () => {
  harness = await createHarness();
  [tenant, other] = [await harness.createTenant(), await harness.createTenant()];
  admin = await harness.adminToken(tenant, ['admin:rewards', 'admin:users']);
  otherAdmin = await harness.adminToken(other, ['admin:rewards']);
});
afterAll(() => harness.close());

async function rewardIn(into: TestTenant, token: string, type = 'VOUCHER'): Promise<string> {
  const response = await harness.request(into, 'POST', '/v1/rewards', {
    token,
    body: { type, name: 'Coffee', price: 10, ...(type === 'VOUCHER' ? {} : { partnerProductId: 'P-1' }) },
  });
  expect(response.status).toBe(201);
  return (await dataOf<{ id: string }>(response)).id;
}
const reward = () => rewardIn(tenant, admin);

function upload(rewardId: string, codes: unknown, options: { into?: TestTenant; token?: string } = {}) {
  return harness.request(options.into ?? tenant, 'POST', `/v1/rewards/${rewardId}/codes`, {
    token: options.token ?? admin,
    body: { codes },
  });
}

async function summary(rewardId: string): Promise<Json> {
  const response = await harness.request(tenant, 'GET', `/v1/rewards/${rewardId}/codes/summary`, { token: admin });
  expect(response.status).toBe(200);
  return dataOf(response);
}

const unique = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-${index}`);

describe('POST /v1/rewards/{id}/codes', () => {
  // docs/rewards.md#codes: "201 `{added, duplicates}`; a code already anywhere in the tenant's pools counts as a duplicate".
  it('adds codes, counting one repeated within the request as a duplicate, and gives the reward a pool', async () => {
    const id = await reward();
    const response = await upload(id, ['A-1', 'A-2', 'A-1']);
    expect(response.status).toBe(201);
    expect(await dataOf(response)).toEqual({ added: 2, duplicates: 1 });
    expect(await summary(id)).toEqual({ total: 2, reserved: 0, available: 2 });
    expect(await queryOne(harness, 'select has_pool from reward where id = ?', [id])).toEqual({ has_pool: true });
  });

  it("counts a code already in another of the tenant's pools as a duplicate, and the same upload again as all duplicates", async () => {
    const [first, second] = [await reward(), await reward()];
    expect(await dataOf(await upload(first, ['B-1', 'B-2']))).toEqual({ added: 2, duplicates: 0 });
    expect(await dataOf(await upload(second, ['B-2', 'B-3']))).toEqual({ added: 1, duplicates: 1 });
    expect(await dataOf(await upload(second, ['B-2', 'B-3']))).toEqual({ added: 0, duplicates: 2 });
    expect(await summary(first)).toEqual({ total: 2, reserved: 0, available: 2 });
    expect(await summary(second)).toEqual({ total: 1, reserved: 0, available: 1 });
  });

  // docs/rewards.md#codes: "a code is matched in any case and with any dashes or spaces: codes that differ only in
  // those are one code", and it is kept as it was given.
  it('counts codes that differ only in case, dashes or spaces as one: a duplicate in the request and in a later upload', async () => {
    const id = await reward();
    expect(await dataOf(await upload(id, ['Esp-7k2M-QX9a', 'ESP7K2MQX9A', ' esp 7k2m qx9a']))).toEqual({
      added: 1,
      duplicates: 2,
    });
    expect(await dataOf(await upload(await reward(), ['ESP7-K2MQ-X9A']))).toEqual({ added: 0, duplicates: 1 });
    const { id: codeId, sealed_code } = await queryOne(
      harness,
      'select id, sealed_code from reward_code where tenant_id = ? and reward_id = ?',
      [tenant.id, id],
    );
    expect(harness.context.voucherCodes.open(tenant.id, codeId, sealed_code)).toBe('Esp-7k2M-QX9a');
  });

  // docs/rewards.md#codes: a code uploaded before codes were matched in their printed form is still matched as given.
  it('counts a code uploaded again exactly as one kept from before codes were matched in printed form as a duplicate', async () => {
    const id = await reward();
    await poolCodeFor(harness, tenant, id, 'kept-Before', 'exact');
    expect(await dataOf(await upload(id, ['kept-Before', 'KEPT-BEFO-RE']))).toEqual({ added: 0, duplicates: 2 });
    expect(await summary(id)).toEqual({ total: 1, reserved: 0, available: 1 });
  });

  // docs/rewards.md#codes: codes kept from before are keyed anew by their printed form (Migration20261128150000).
  it('keys a code kept from before anew by its printed form, unless another code already holds that key', async () => {
    const id = await reward();
    await poolCodeFor(harness, tenant, id, 'anew-Code7', 'exact');
    await poolCodeFor(harness, tenant, id, 'twin-b', 'exact');
    await poolCodeFor(harness, tenant, id, 'TWIN-B');
    const migrator = harness.context.orm.getMigrator();
    await migrator.down({ to: 'Migration20261128150000' });
    await migrator.up();
    const keys = harness.context.voucherCodes;
    const stored = async (code: string) =>
      (
        await queryOne(harness, 'select count(*)::int as n from reward_code where tenant_id = ? and code_hash = ?', [
          tenant.id,
          code,
        ])
      ).n;
    const [anewPrinted, anewExact] = keys.lookupKeys(tenant.id, 'anew-Code7');
    expect([await stored(anewPrinted), await stored(anewExact)]).toEqual([1, 0]);
    const [twinPrinted, twinExact] = keys.lookupKeys(tenant.id, 'twin-b');
    expect([await stored(twinPrinted), await stored(twinExact)]).toEqual([1, 1]);
    expect(await dataOf(await upload(id, ['ANEW-CODE-7']))).toEqual({ added: 0, duplicates: 1 });
  });

  it("does not count another tenant's same code as a duplicate", async () => {
    await upload(await reward(), ['SHARED-1']);
    const theirs = await rewardIn(other, otherAdmin);
    const response = await upload(theirs, ['SHARED-1'], { into: other, token: otherAdmin });
    expect(await dataOf(response)).toEqual({ added: 1, duplicates: 0 });
  });

  // docs/rewards.md#codes: "up to 10,000 a request".
  it('takes 10,000 codes of 128 characters in one request, a body larger than the 1 MB of other routes', async () => {
    const id = await reward();
    const codes = Array.from({ length: 10_000 }, (_, index) => String(index).padStart(128, 'C'));
    expect(JSON.stringify({ codes }).length).toBeGreaterThan(1024 * 1024);
    const response = await upload(id, codes);
    expect(response.status).toBe(201);
    expect(await dataOf(response)).toEqual({ added: 10_000, duplicates: 0 });
    expect(await summary(id)).toEqual({ total: 10_000, reserved: 0, available: 10_000 });
  });

  // docs/api-conventions.md#limits: bodies over the limit are 413 before they are read.
  it('refuses a body over 6 MB with 413, and keeps the 1 MB limit of every other route', async () => {
    const id = await reward();
    const tooMany = await harness.request(tenant, 'POST', `/v1/rewards/${id}/codes`, {
      token: admin,
      rawBody: JSON.stringify({ codes: ['x'.repeat(6 * 1024 * 1024)] }),
    });
    expect(tooMany.status).toBe(413);
    const largeReward = await harness.request(tenant, 'POST', '/v1/rewards', {
      token: admin,
      body: { type: 'VOUCHER', name: 'x'.repeat(1024 * 1024), price: 1 },
    });
    expect(largeReward.status).toBe(413);
  });

  it('refuses a large body without an admin token for the token, and one over 6 MB for its size, token or not', async () => {
    const id = await reward();
    const path = `/v1/rewards/${id}/codes`;
    const large = await harness.request(tenant, 'POST', path, { body: { codes: ['y'.repeat(2 * 1024 * 1024)] } });
    expect(large.status).toBe(401);
    const tooLarge = await harness.request(tenant, 'POST', path, { body: { codes: ['y'.repeat(6 * 1024 * 1024)] } });
    expect(tooLarge.status).toBe(413);
  });

  // docs/api-conventions.md#request-bodies: a bad field is 400 ValidationError naming it.
  it.each([
    ['codes', []],
    ['codes', 'CODE-1'],
    ['codes', unique('many', 10_001)],
    ['codes.0', ['']],
    ['codes.1', ['ok', ' - -']],
    ['codes.1', ['ok', 'z'.repeat(129)]],
    ['codes.0', [42]],
  ])('refuses bad %s', async (property, codes) => {
    const response = await upload(await reward(), codes);
    expect(response.status).toBe(400);
    const { data } = await jsonOf(response);
    expect(data.name).toBe('ValidationError');
    expect(data.errors.map((issue: Json) => issue.property)).toEqual([property]);
  });

  it('refuses a field besides codes', async () => {
    const response = await harness.request(tenant, 'POST', `/v1/rewards/${await reward()}/codes`, {
      token: admin,
      body: { codes: ['C'], reward: 'x' },
    });
    expect(response.status).toBe(400);
  });

  // docs/rewards.md#codes: a pool is for a VOUCHER reward's vouchers.
  it('refuses codes for a reward that is not a VOUCHER', async () => {
    const partner = await rewardIn(tenant, admin, 'PARTNER1_PRODUCT');
    const response = await upload(partner, ['P-1']);
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data.name).toBe('BadRequestError');
    expect(await summary(partner)).toEqual({ total: 0, reserved: 0, available: 0 });
  });

  it("is 404 for an unknown reward and for another tenant's, and adds nothing to it", async () => {
    const theirs = await rewardIn(other, otherAdmin);
    expect((await upload(randomUUID(), ['N-1'])).status).toBe(404);
    expect((await upload(theirs, ['N-2'])).status).toBe(404);
    expect((await harness.request(tenant, 'GET', `/v1/rewards/${theirs}/codes/summary`, { token: admin })).status).toBe(
      404,
    );
    expect(await queryOne(harness, 'select count(*)::int as n from reward_code where reward_id = ?', [theirs])).toEqual(
      {
        n: 0,
      },
    );
  });

  it('takes admin:rewards', async () => {
    const id = await reward();
    const token = await harness.adminToken(tenant, ['admin:users']);
    const response = await harness.request(tenant, 'POST', `/v1/rewards/${id}/codes`, {
      token,
      body: { codes: ['T'] },
    });
    expect(response.status).toBe(401);
    expect((await harness.request(tenant, 'GET', `/v1/rewards/${id}/codes/summary`, { token })).status).toBe(401);
  });

  // docs/api-conventions.md#audit-log: the upload is audited with its counts, never the codes.
  it('is audited as reward.codes_added with the counts and without the codes', async () => {
    const id = await reward();
    await upload(id, ['AUDITED-SECRET-1', 'AUDITED-SECRET-1']);
    const { job } = await queryOne(
      harness,
      "select job from audit_outbox where job->>'action' = 'reward.codes_added' and job->>'resourceId' = ?",
      [id],
    );
    expect(job).toMatchObject({ resourceType: 'reward', before: null, after: { added: 1, duplicates: 1 } });
    expect(JSON.stringify(job)).not.toContain('AUDITED-SECRET');
  });

  it('with the same Idempotency-Key again answers the first counts', async () => {
    const id = await reward();
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { codes: ['IDEM-1', 'IDEM-2'] };
    const first = await harness.request(tenant, 'POST', `/v1/rewards/${id}/codes`, { token: admin, body, headers });
    const again = await harness.request(tenant, 'POST', `/v1/rewards/${id}/codes`, { token: admin, body, headers });
    expect(await dataOf(first)).toEqual({ added: 2, duplicates: 0 });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await dataOf(again)).toEqual({ added: 2, duplicates: 0 });
  });

  // docs/rewards.md#codes: "Codes are never stored in the clear ... so a database dump hands out none."
  it('never stores a code in the clear, yet each opens under its row for the voucher', async () => {
    const id = await reward();
    const codes = ['CLEAR-TEXT-CHECK-1', 'CLEAR-TEXT-CHECK-2'];
    await upload(id, codes);
    const rows = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string; row: string; sealed_code: string }[]>(
        'select id, sealed_code, reward_code::text as row from reward_code where reward_id = ?',
        [id],
      );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.row).not.toContain('CLEAR-TEXT-CHECK');
    const opened = rows.map((row) => harness.context.voucherCodes.open(tenant.id, row.id, row.sealed_code)).sort();
    expect(opened).toEqual(codes);
  });
});

// docs/rewards.md#codes: "`GET /v1/rewards/{id}/codes/summary` answers `{total, reserved, available}`".
describe('GET /v1/rewards/{id}/codes/summary', () => {
  let memberId: string;
  beforeAll(async () => {
    memberId = (await registerMember(harness, tenant, admin, 'code-buyer')).id;
    await givePoints(harness, tenant, memberId, 1000);
  });

  const buy = (rewardId: string) =>
    purchase(
      { ...harness.context, codes: harness.context.voucherCodes },
      harness.context.orm.em.fork(),
      {
        id: randomUUID(),
        tenantId: tenant.id,
        userId: memberId,
        actor: actorOf(undefined),
        resource: { type: 'REWARD', id: rewardId },
        policy: pointsPolicyOf({}),
      },
      new Date(),
    );

  it('counts the code a purchase reserved', async () => {
    const id = await reward();
    await upload(id, ['S-1', 'S-2', 'S-3']);
    await buy(id);
    expect(await summary(id)).toEqual({ total: 3, reserved: 1, available: 2 });
  });

  // Issue 31: "GET …/codes/summary scans the tenant's codes (no index on reward_code(reward_id))".
  it("reads one reward's codes through an index on reward_id, not every code of the tenant", async () => {
    const rewards = await Promise.all(Array.from({ length: 20 }, () => reward()));
    // 1,000 codes for each of 20 rewards, and the statistics of a table that holds them.
    await harness.context.orm.em.getConnection().execute(
      `insert into reward_code (id, tenant_id, reward_id, code_hash, sealed_code, created_at)
       select gen_random_uuid(), ?, reward_id::uuid, md5(reward_id || n), 'sealed', now()
         from jsonb_array_elements_text(?::jsonb) as reward_id, generate_series(1, 1000) as n`,
      [tenant.id, JSON.stringify(rewards)],
    );
    await harness.context.orm.em.getConnection().execute('analyze reward_code');
    const { 'QUERY PLAN': plan } = await queryOne(harness, `explain (format json) ${CODE_SUMMARY_SQL}`, [
      tenant.id,
      rewards[7],
    ]);
    const nodes = planNodes(plan[0].Plan);
    expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
    expect(nodes.some((node) => String(node['Index Cond'] ?? '').includes('reward_id'))).toBe(true);
    expect(await summary(rewards[7]!)).toEqual({ total: 1000, reserved: 0, available: 1000 });
  });

  it('counts the codes generated for a reward without a pool, all reserved', async () => {
    const id = await reward();
    expect(await summary(id)).toEqual({ total: 0, reserved: 0, available: 0 });
    await buy(id);
    await buy(id);
    expect(await summary(id)).toEqual({ total: 2, reserved: 2, available: 0 });
  });
});

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** A plan's node and all those below it. */
function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}
