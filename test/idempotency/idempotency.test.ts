import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyClaim,
} from '../../shared/idempotency/idempotency-store.js';
import { Sealer } from '../../shared/platform/secrets/sealer.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import {
  createHarness,
  type Harness,
  type TestTenant,
  jsonOf,
  queryOne,
  USER_TOKEN_ISSUER,
} from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types']);
});
afterAll(() => harness.close());

const create = (key: string, body: unknown) =>
  harness.request(tenant, 'POST', '/v1/event_types', { token: admin, body, headers: { 'Idempotency-Key': key } });

/** Moves the tenant's newest record back in time (keys are stored hashed with their caller). */
async function ageNewestRecord(interval: string, extra = ''): Promise<void> {
  await harness.context.orm.em
    .fork()
    .getConnection()
    .execute(
      `update idempotency_record set created_at = now() - ${interval} ${extra} where id = (select id from idempotency_record where tenant_id = ? order by created_at desc limit 1)`,
      [tenant.id],
    );
}

async function countTypes(name: string): Promise<number> {
  const row = await queryOne(harness, 'select count(*)::int as n from event_type where name = ?', [name]);
  return row.n;
}

// docs/api-conventions.md#idempotency: "the same key with the same body within 24 h returns the first response; with another body, 422."
describe('Idempotency-Key on creating POSTs', () => {
  it('the same key and body returns the first response, replayed, and creates once', async () => {
    const body = { name: 'ONCE_ONLY', description: 'x', isPrivate: true };
    const first = await create('key-1', body);
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    // Same body with its keys in another order: the canonical form is what counts.
    const again = await create('key-1', { isPrivate: true, description: 'x', name: 'ONCE_ONLY' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect(await countTypes('ONCE_ONLY')).toBe(1);
  });

  it('the same key with another body is 422', async () => {
    await create('key-2', { name: 'FIRST_BODY', description: 'x', isPrivate: false });
    const response = await create('key-2', { name: 'SECOND_BODY', description: 'x', isPrivate: false });
    expect(response.status).toBe(422);
    expect(await jsonOf(response)).toMatchObject({
      status: 'fail',
      data: { name: 'IdempotencyKeyReusedError', httpCode: 422 },
    });
    expect(await countTypes('SECOND_BODY')).toBe(0);
  });

  it('two concurrent requests with one key do the work once and answer alike', async () => {
    const body = { name: 'RACED', description: 'x', isPrivate: true };
    const responses = await Promise.all(Array.from({ length: 5 }, () => create('key-3', body)));
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
    const bodies = await Promise.all(responses.map((response) => response.json()));
    for (const other of bodies.slice(1)) expect(other).toEqual(bodies[0]);
    expect(await countTypes('RACED')).toBe(1);
  });

  it('keys belong to one tenant: another tenant may use the same key', async () => {
    const other = await harness.createTenant();
    const response = await harness.request(other, 'POST', '/v1/event_types', {
      token: await harness.adminToken(other, ['admin:event_types']),
      body: { name: 'ONCE_ONLY', description: 'x', isPrivate: true },
      headers: { 'Idempotency-Key': 'key-1' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a key older than 24 hours is forgotten', async () => {
    await create('key-4', { name: 'OLD_KEY', description: 'x', isPrivate: false });
    await ageNewestRecord("interval '25 hours'");
    const response = await create('key-4', { name: 'NEW_AFTER_WINDOW', description: 'x', isPrivate: false });
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
  });

  it("stored answers are sealed: a private type's secret replays, but is not in the database in the clear", async () => {
    const first = await jsonOf(await create('key-5', { name: 'SEALED', description: 'x', isPrivate: true }));
    expect(first.data.secret).toMatch(/^ets_/);
    const stored = await queryOne(
      harness,
      'select response_body from idempotency_record where tenant_id = ? order by created_at desc limit 1',
      [tenant.id],
    );
    expect(stored.response_body).not.toContain(first.data.secret);
    expect(stored.response_body).not.toContain('SEALED');
    expect(
      (await jsonOf(await create('key-5', { name: 'SEALED', description: 'x', isPrivate: true }))).data.secret,
    ).toBe(first.data.secret);
  });

  it('a claim whose lease lapsed (its process died) is taken over; one still renewed is not', async () => {
    const first = await jsonOf(await create('key-6', { name: 'ABANDONED', description: 'x', isPrivate: false }));
    // As if the process had died between creating the type and storing its answer: no answer, lease lapsed.
    await ageNewestRecord(
      "interval '0 seconds'",
      ", response_status = null, response_body = null, claimed_until = now() - interval '1 second'",
    );
    const retry = await create('key-6', { name: 'ABANDONED', description: 'x', isPrivate: false });
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    // The retry found what the first request created under the id it reserved, rather than creating it again.
    expect(retry.status).toBe(201);
    expect((await jsonOf(retry)).data).toEqual(first.data);
    const replayed = await create('key-6', { name: 'ABANDONED', description: 'x', isPrivate: false });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await countTypes('ABANDONED')).toBe(1);
    // Another body under the abandoned key is refused, not run: what the first request did is unknown.
    await ageNewestRecord(
      "interval '0 seconds'",
      ", response_status = null, response_body = null, claimed_until = now() - interval '1 second'",
    );
    expect((await create('key-6', { name: 'OTHER', description: 'x', isPrivate: false })).status).toBe(422);

    await create('key-8', { name: 'STILL_WORKING', description: 'x', isPrivate: false });
    await ageNewestRecord(
      "interval '10 minutes'",
      ", response_status = null, response_body = null, claimed_until = now() + interval '30 seconds'",
    );
    const waiting = await create('key-8', { name: 'STILL_WORKING', description: 'x', isPrivate: false });
    expect(waiting.status).toBe(409);
    expect((await jsonOf(waiting)).message).toContain('still being processed');
  }, 30_000);

  it("keys belong to their caller: another admin's same key is theirs, not a replay", async () => {
    await create('key-7', { name: 'MINE', description: 'x', isPrivate: false });
    const colleague = await harness.adminToken(tenant, ['admin:event_types'], 'another-admin');
    const response = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: colleague,
      body: { name: 'THEIRS', description: 'x', isPrivate: false },
      headers: { 'Idempotency-Key': 'key-7' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
  });

  it("on POST /events, where no admin token names the caller, one user's key never replays to another", async () => {
    const token = await harness.adminToken(tenant, ['admin:event_types', 'admin:users']);
    await harness.request(tenant, 'POST', '/v1/event_types', {
      token,
      body: { name: 'DOOR_OPENED', description: 'x', isPrivate: false },
    });
    for (const id of ['ann', 'bob']) {
      await harness.request(tenant, 'POST', '/v1/users', {
        token,
        body: {
          isRestricted: false,
          authIdentifier: id,
          profile: { familyName: 'D', givenName: id, emailAddress: `${id}@example.com` },
        },
      });
    }
    const report = async (user: string) =>
      harness.request(tenant, 'POST', '/v1/events', {
        token: await harness.userToken(tenant, user),
        body: { type: 'DOOR_OPENED' },
        headers: { 'Idempotency-Key': 'door-1' },
      });
    expect((await jsonOf(await report('ann'))).data.subject.authIdentifier).toBe('ann');
    const bob = await report('bob');
    expect(bob.headers.get('idempotent-replayed')).toBeNull();
    expect((await jsonOf(bob)).data.subject.authIdentifier).toBe('bob');
  });

  // Review of issue 17: keyed by the raw Authorization header, a retry with a refreshed token was
  // another caller's request, and reported the event a second time under a new id.
  describe('a report that died after its acceptance, retried by the member', () => {
    let member: string;
    const lapseNewestClaim = () =>
      ageNewestRecord(
        "interval '0 seconds'",
        ", response_status = null, response_body = null, claimed_until = now() - interval '1 second'",
      );
    const refreshedToken = (sub: string) =>
      new SignJWT({ refreshed: true })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(USER_TOKEN_ISSUER)
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('20m')
        .sign(new TextEncoder().encode(tenant.sharedKey));
    const report = (token: string, key: string) =>
      harness.request(tenant, 'POST', '/v1/events', {
        token,
        body: { type: 'BELL_RUNG', payload: { ring: key } },
        headers: { 'Idempotency-Key': key },
      });
    const registered = async (id: number) =>
      (await queryOne(harness, 'select count(*)::int as n from event where id = ?', [id])).n as number;

    beforeAll(async () => {
      const token = await harness.adminToken(tenant, ['admin:event_types', 'admin:users']);
      await harness.request(tenant, 'POST', '/v1/event_types', {
        token,
        body: { name: 'BELL_RUNG', description: 'x', isPrivate: false },
      });
      await harness.request(tenant, 'POST', '/v1/users', {
        token,
        body: {
          isRestricted: false,
          authIdentifier: 'cy',
          profile: { familyName: 'D', givenName: 'Cy', emailAddress: 'cy@example.com' },
        },
      });
      member = await harness.userToken(tenant, 'cy');
    });

    it("with a refreshed token is the same caller's retry: it answers the reserved event id", async () => {
      const first = await jsonOf(await report(member, 'bell-1'));
      await lapseNewestClaim();
      const refreshed = await refreshedToken('cy');
      expect(refreshed).not.toBe(member);
      const retry = await report(refreshed, 'bell-1');
      expect(retry.status).toBe(201);
      expect((await jsonOf(retry)).data.id).toBe(first.data.id);
    });

    it('answers the registered event, even when the report would now be refused (its type deactivated)', async () => {
      const first = await jsonOf(await report(member, 'bell-2'));
      const workers = startWorkers(harness.context, ['events']);
      try {
        await expect.poll(() => registered(first.data.id), { timeout: 20_000 }).toBe(1);
      } finally {
        await closeWorkers(workers);
      }
      await lapseNewestClaim();
      const admin = await harness.adminToken(tenant, ['admin:event_types']);
      await harness.request(tenant, 'PATCH', '/v1/event_types/BELL_RUNG', { token: admin, body: { isActive: false } });
      const retry = await report(member, 'bell-2');
      expect(retry.status).toBe(201);
      expect((await jsonOf(retry)).data).toMatchObject({ id: first.data.id, subject: { authIdentifier: 'cy' } });
    });
  });

  it('a malformed key is 400', async () => {
    const response = await create('bad key with spaces', { name: 'NEVER', description: 'x', isPrivate: false });
    expect(response.status).toBe(400);
  });
});

// Review of issue 17: a request that lost its claim to a retry must not answer, renew or release the retry's claim.
describe('a claim belongs to the request holding it', () => {
  it('the first request, late after a retry took its lapsed claim over, can neither answer nor release it', async () => {
    const em = () => harness.context.orm.em.fork();
    const sealer = new Sealer(harness.config.platformTokenSecret, 'idempotency-response');
    // Each reservation is new, so the retry showing the first one proves it took that over.
    let reservations = 0;
    const request = {
      tenantId: tenant.id,
      key: 'owner-test',
      fingerprint: 'f',
      leaseMs: 60_000,
      reserve: async () => `reserved-${++reservations}`,
    };
    const first = await claimIdempotencyKey(em(), sealer, request);
    if (first.state !== 'claimed') throw new Error(`expected a claim, got ${first.state}`);
    await em()
      .getConnection()
      .execute("update idempotency_record set claimed_until = now() - interval '1 second' where id = ?", [
        first.recordId,
      ]);
    const retry = await claimIdempotencyKey(em(), sealer, request);
    expect(retry).toMatchObject({
      state: 'claimed',
      recordId: first.recordId,
      reservedId: 'reserved-1',
      takenOver: true,
    });
    if (retry.state !== 'claimed') return;

    const late = { tenantId: tenant.id, recordId: first.recordId, token: first.token };
    await releaseIdempotencyClaim(em(), late);
    expect(await claimIdempotencyKey(em(), sealer, request)).toEqual({ state: 'in-progress' });
    expect(await completeIdempotencyKey(em(), sealer, { ...late, key: 'owner-test' }, 201, '{"late":true}')).toBe(
      false,
    );
    expect(
      await completeIdempotencyKey(
        em(),
        sealer,
        { tenantId: tenant.id, recordId: retry.recordId, token: retry.token, key: 'owner-test' },
        201,
        '{"retry":true}',
      ),
    ).toBe(true);
    expect(await claimIdempotencyKey(em(), sealer, request)).toEqual({
      state: 'replay',
      status: 201,
      body: '{"retry":true}',
    });
  });
});
