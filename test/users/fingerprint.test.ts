import { createHash, randomBytes } from 'node:crypto';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../shared/database.js';
import { KeyedHash } from '../../shared/platform/secrets/keyed-hash.js';
import { memberFingerprint } from '../../shared/users/member-fingerprint.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import {
  createHarness,
  dataOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let secret: string;
let workers: Worker[] = [];

const FINGERPRINT = /^[0-9a-f]{32}$/;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:event_types', 'admin:events']);
  const type = await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'SHOP_VISITED', description: 'a visit', isPrivate: true },
  });
  secret = (await dataOf<{ secret: string }>(type)).secret;
  workers = startWorkers(harness.context, ['events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const read = async (path: string, token = admin) => dataOf<Json>(await harness.request(tenant, 'GET', path, { token }));

let visits = 0;
/** Reports a visit of the member (each its own, not a duplicate) as POST /v1/events answers it. */
function reportVisit(subject: string): Promise<Response> {
  visits += 1;
  return harness.request(tenant, 'POST', '/v1/events', {
    token: secret,
    body: { type: 'SHOP_VISITED', subject, payload: { visit: visits } },
  });
}

/** Reports a visit and waits for its registration (the positive signal): the event as GET /v1/events/{id} shows it. */
async function visitOf(subject: string): Promise<Json> {
  const reported = await reportVisit(subject);
  const { id } = await dataOf<{ id: number }>(reported);
  expect((await harness.request(tenant, 'GET', `/v1/events/${id}/reactions?wait=10000`)).status).toBe(200);
  return read(`/v1/events/${id}`);
}

// decisions §14: "`fingerprint` is a stable, non-reversible identifier of a member within its tenant (a keyed hash
// of tenant and member id, hex, 32 characters), shown on member views and on an event's `subject`; it survives
// profile changes and is removed by erasure."
describe("a member's fingerprint", () => {
  it("is a keyed hash of the tenant's and the member's ids, 32 hex characters, on every member view", async () => {
    const member = await registerMember(harness, tenant, admin, 'ada');
    expect(member.fingerprint).toMatch(FINGERPRINT);
    expect(member.fingerprint).toBe(memberFingerprint(harness.context.fingerprintKey, tenant.id, member.id));
    // Nothing a reader holds recomputes it: neither the id, nor a plain hash of tenant and id, nor the key of
    // another secret (test/platform/derived-keys.test.ts pins the key).
    expect(member.id.replace(/-/g, '')).not.toBe(member.fingerprint);
    expect(createHash('sha256').update(`${tenant.id}\n${member.id}`).digest('hex').slice(0, 32)).not.toBe(
      member.fingerprint,
    );
    const otherSecret = new KeyedHash(randomBytes(32).toString('base64url'), 'member-fingerprint');
    expect(memberFingerprint(otherSecret, tenant.id, member.id)).not.toBe(member.fingerprint);
    expect((await read(`/v1/users/${member.id}`)).fingerprint).toBe(member.fingerprint);
    expect((await read('/v1/users/me', await harness.userToken(tenant, 'ada'))).fingerprint).toBe(member.fingerprint);
    const listed = await read(`/v1/users?filter=${encodeURIComponent("authIdentifier:(eq:'ada')")}`);
    expect(listed.map((user: Json) => user.fingerprint)).toEqual([member.fingerprint]);
  });

  it('differs between members, and for the same member id in another tenant', async () => {
    const other = await registerMember(harness, tenant, admin, 'grace');
    const ada = await read('/v1/users/ada');
    expect(other.fingerprint).not.toBe(ada.fingerprint);
    const elsewhere = await harness.createTenant();
    expect(memberFingerprint(harness.context.fingerprintKey, elsewhere.id, ada.id)).not.toBe(ada.fingerprint);
  });

  it("is on an event's subject, as reported and as registered", async () => {
    const ada = await read('/v1/users/ada');
    expect(ada.fingerprint).toMatch(FINGERPRINT);
    const reported = await reportVisit('ada');
    expect((await dataOf<Json>(reported)).subject.fingerprint).toBe(ada.fingerprint);
    expect((await visitOf('ada')).subject.fingerprint).toBe(ada.fingerprint);
  });

  it('survives profile changes', async () => {
    const before = await read('/v1/users/ada');
    expect(before.fingerprint).toMatch(FINGERPRINT);
    const changed = await harness.request(tenant, 'PATCH', '/v1/users/ada', {
      token: admin,
      body: { profile: { givenName: 'Augusta', emailAddress: 'augusta@example.com' }, externalIdentifier: 'crm-1' },
    });
    expect((await dataOf<Json>(changed)).fingerprint).toBe(before.fingerprint);
    const own = await harness.request(tenant, 'PATCH', '/v1/users/me', {
      token: await harness.userToken(tenant, 'ada'),
      body: { profile: { city: 'London' } },
    });
    expect((await dataOf<Json>(own)).fingerprint).toBe(before.fingerprint);
  });

  it("is removed by erasure: from the member's view, its events' subject and the database", async () => {
    const leaving = await registerMember(harness, tenant, admin, 'leaving');
    const visit = await visitOf('leaving');
    expect(visit.subject.fingerprint).toMatch(FINGERPRINT);
    expect(visit.subject.fingerprint).toBe(leaving.fingerprint);
    expect((await harness.request(tenant, 'DELETE', '/v1/users/leaving', { token: admin })).status).toBe(200);
    expect(await read(`/v1/users/${leaving.id}`)).not.toHaveProperty('fingerprint');
    expect((await read(`/v1/events/${visit.id}`)).subject).not.toHaveProperty('fingerprint');
    expect(await queryOne(harness, 'select fingerprint from member where id = ?', [leaving.id])).toEqual({
      fingerprint: null,
    });
  });
});

const MIGRATION = 'Migration20261128091806';

describe('members registered before fingerprints', () => {
  it('are given one by the migration, under the platform secret; an erased member none', async () => {
    const older = await registerMember(harness, tenant, admin, 'older');
    const erased = await registerMember(harness, tenant, admin, 'erased-before');
    await harness.request(tenant, 'DELETE', `/v1/users/${erased.id}`, { token: admin });
    const migrator = harness.context.orm.getMigrator();
    // Down to it, inclusive: the database as it was before it, and what came after.
    await migrator.down({ to: MIGRATION });

    // Without the platform secret a migration that has rows to rewrite refuses, and changes nothing.
    const withoutSecret = await createDatabase(harness.config.databaseUrl);
    try {
      await expect(withoutSecret.getMigrator().up({ to: MIGRATION })).rejects.toThrow(
        new RegExp(`${MIGRATION} rewrites stored values under a key derived from PLATFORM_TOKEN_SECRET`),
      );
    } finally {
      await withoutSecret.close();
    }
    await migrator.up();

    const fingerprintOf = async (id: string) =>
      (await queryOne(harness, 'select fingerprint from member where id = ?', [id])).fingerprint;
    expect(await fingerprintOf(older.id)).toBe(older.fingerprint);
    expect(await fingerprintOf(erased.id)).toBeNull();
  });
});
