import { randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEventType } from '../../shared/event-types/audited-event-type-changes.js';
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
import { customRule, totalOver } from '../support/rule-definitions.js';
import type { Scope } from '../../shared/platform/auth/scopes.js';

// docs/api-conventions.md#audit-log: "Every change an admin makes is recorded with who made it …, the
// action, the resource's type and id, and the resource before and after …; a change that fails leaves no entry."

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let workers: Worker[] = [];
const ACTOR = {
  subject: 'auditor@example.com',
  scopes: ['admin:reactors', 'admin:tenant', 'admin:rules', 'admin:users', 'admin:receipts'],
};
const SETS = '/v1/transactions-rule-engine/rule-sets';

beforeAll(async () => {
  // A claim is answered at once: no reviewer worker runs here, and the manual review is what is tested.
  harness = await createHarness({ receiptDecisionWaitMs: 0 });
  workers = startWorkers(harness.context, ['audit']);
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ACTOR.scopes as Scope[], ACTOR.subject);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const call = (method: string, path: string, body?: unknown, token = admin) =>
  harness.request(tenant, method, path, { token, ...(body === undefined ? {} : { body }) });

async function answerOf(method: string, path: string, body?: unknown): Promise<Json> {
  const response = await call(method, path, body);
  if (response.status >= 300)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return dataOf<Json>(response);
}

interface Entry {
  action: string;
  actor: { subject: string; scopes: string[] };
  resourceType: string;
  resourceId: string;
  before: Json;
  after: Json;
}

/** The audit log's entries about one resource, oldest first, once the audit worker has recorded `count` of them. */
async function entriesAbout(resourceId: string, count: number): Promise<Entry[]> {
  const filter = encodeURIComponent(`resourceId:(eq:'${resourceId}')`);
  let entries: Entry[] = [];
  await expect
    .poll(
      async () => {
        entries = await dataOf<Entry[]>(await call('GET', `/v1/audit-log?filter=${filter}&sort=occurredAt&order=ASC`));
        return entries.length;
      },
      { timeout: 15_000, interval: 50 },
    )
    .toBe(count);
  return entries;
}

/**
 * Every entry of the tenant, staged or recorded, counted in one statement (one snapshot): the audit
 * worker moves an entry from the outbox to the log in one transaction, so the sum never double counts.
 */
async function entriesStagedOrRecorded(): Promise<number> {
  const row = await queryOne(
    harness,
    `select (select count(*) from audit_outbox where tenant_id = ?)::int
          + (select count(*) from audit_entry where tenant_id = ?)::int as n`,
    [tenant.id, tenant.id],
  );
  return row.n;
}

/** A request that must fail with `status` and stage no entry. */
async function expectRefusedUnaudited(method: string, path: string, body: unknown, status: number): Promise<void> {
  const before = await entriesStagedOrRecorded();
  const response = await call(method, path, body);
  expect({ status: response.status, body: await response.text() }).toMatchObject({ status });
  expect(await entriesStagedOrRecorded()).toBe(before);
}

/** A resource with the usual routes: POST path, PATCH and DELETE path/{id}. */
interface CrudCase {
  resourceType: string;
  path: string;
  create: () => unknown;
  update: unknown;
  /** The record as GET shows it, from the creating answer (without the one-time secret, the tenant object). */
  view?: (answer: Json) => Json;
  /** A change the service refuses (not the schema): it must leave no entry. */
  refused: () => Promise<{ method: string; path: string; body: unknown; status: number }>;
}

let productCount = 0;
const CRUD: CrudCase[] = [
  {
    resourceType: 'product',
    path: '/v1/products',
    create: () => ({ name: 'Oat milk', identifiers: [`SKU-OAT-${++productCount}`], unitPrice: 2.5 }),
    update: { unitPrice: 2.75, isActive: false },
    refused: async () => {
      // An identifier another product holds: 409, after the product's row was read and changed.
      const holder = await answerOf('POST', '/v1/products', { name: 'Holder', identifiers: ['SKU-HELD'] });
      const other = await answerOf('POST', '/v1/products', { name: 'Other', identifiers: ['SKU-OTHER'] });
      expect(holder.id).not.toBe(other.id);
      return { method: 'PATCH', path: `/v1/products/${other.id}`, body: { identifiers: ['SKU-HELD'] }, status: 409 };
    },
  },
  {
    resourceType: 'venue',
    path: '/v1/venues',
    create: () => ({ name: 'Leeds', identifiers: ['LEEDS-1'], position: { latitude: 53.8, longitude: -1.55 } }),
    update: { radiusMeters: 250 },
    refused: async () => ({ method: 'PATCH', path: `/v1/venues/${randomUUID()}`, body: { name: 'x' }, status: 404 }),
  },
  {
    resourceType: 'reactor',
    path: '/v1/reactors',
    create: () => ({
      name: 'Ten per order',
      eventType: 'ORDER_PLACED',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
    }),
    update: { isActive: false },
    refused: async () => ({
      method: 'POST',
      path: '/v1/reactors',
      body: {
        name: 'Unknown type',
        eventType: 'NO_SUCH_TYPE',
        reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '1' }] } }],
      },
      status: 400,
    }),
  },
  {
    resourceType: 'webhook',
    path: '/v1/webhooks',
    create: () => ({ url: 'https://hooks.example.test/tally', eventTypes: ['ORDER_PLACED'] }),
    update: { isActive: false },
    view: ({ secret: _secret, ...view }) => view,
    refused: async () => {
      // A webhook a reactor delivers to is not deleted: 409.
      const webhook = await answerOf('POST', '/v1/webhooks', { url: 'https://hooks.example.test/named' });
      await answerOf('POST', '/v1/reactors', {
        name: 'Delivers',
        eventType: 'ORDER_PLACED',
        reactions: [{ type: 'WEBHOOK', webhookId: webhook.id }],
      });
      return { method: 'DELETE', path: `/v1/webhooks/${webhook.id}`, body: undefined, status: 409 };
    },
  },
  {
    resourceType: 'rule_set',
    path: SETS,
    create: () => ({
      name: 'Bakery',
      isActive: false,
      ruleDefinitions: [customRule('BIG_SPEND', 10, totalOver(50))],
    }),
    update: { isActive: true, scope: { merchantName: 'Corner Shop' } },
    view: ({ tenant: _tenant, ...view }) => view,
    refused: async () => ({
      method: 'POST',
      path: SETS,
      // A catalogue price check for no product: nothing to check against (400).
      body: { isActive: true, ruleDefinitions: [basketRule('Unknown product', randomUUID(), true)] },
      status: 400,
    }),
  },
];

function basketRule(name: string, productId: string, isUnitPriceCheckNeeded = false) {
  return {
    type: 'BASKET',
    name,
    priority: 1,
    configuration: { productId, isUnitPriceCheckNeeded },
    resultParams: { success: [{ key: 'basket', value: true }], failure: [] },
  };
}

describe.each(CRUD)('$resourceType', ({ resourceType, path, create, update, view = (answer) => answer, refused }) => {
  it(`POST, PATCH and DELETE are audited as ${resourceType}.created, .updated and .deleted, by the admin, with the record before and after`, async () => {
    const created = view(await answerOf('POST', path, create()));
    const updated = await answerOf('PATCH', `${path}/${created.id}`, update);
    await answerOf('DELETE', `${path}/${created.id}`);

    const entries = await entriesAbout(created.id, 3);
    expect(entries.map(({ action, resourceType }) => [action, resourceType])).toEqual([
      [`${resourceType}.created`, resourceType],
      [`${resourceType}.updated`, resourceType],
      [`${resourceType}.deleted`, resourceType],
    ]);
    for (const entry of entries) expect(entry.actor).toEqual(ACTOR);
    expect(entries.map(({ before, after }) => ({ before, after }))).toEqual([
      { before: null, after: created },
      { before: created, after: updated },
      { before: updated, after: null },
    ]);
  });

  it('a change the service refuses leaves no entry', async () => {
    const { method, path: target, body, status } = await refused();
    await expectRefusedUnaudited(method, target, body, status);
  });

  it('a change of a record that does not exist (404) leaves no entry', async () => {
    await expectRefusedUnaudited('PATCH', `${path}/${randomUUID()}`, update, 404);
    await expectRefusedUnaudited('DELETE', `${path}/${randomUUID()}`, undefined, 404);
  });
});

// docs/architecture.md#rules-the-code-keeps: "An admin change of one resource goes through
// `auditedResourceChange`: the change and its audit entry in one transaction", whoever calls the service.
describe('event types', () => {
  it('a type created through its service, as the CLI or a worker would, is audited as event_type.created, without its secret', async () => {
    const { eventType, secret } = await addEventType(harness.context, harness.context.orm.em.fork(), ACTOR, tenant.id, {
      name: 'SERVICE_MADE',
      description: 'made without HTTP',
      isPrivate: true,
    });
    const [entry] = await entriesAbout(eventType.id, 1);
    expect(entry).toMatchObject({ action: 'event_type.created', actor: ACTOR, before: null, after: eventType });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it('a type whose audit entry cannot be written is not created', async () => {
    const connection = harness.context.orm.em.getConnection();
    // The outbox refuses this one entry, as a full disk or a lost connection would refuse it.
    await connection.execute(`
      create function refuse_unauditable() returns trigger language plpgsql as $$
      begin
        if new.job->'after'->>'name' = 'UNAUDITABLE' then raise exception 'the audit write failed'; end if;
        return new;
      end $$`);
    await connection.execute(
      'create trigger refuse_unauditable before insert on audit_outbox for each row execute function refuse_unauditable()',
    );
    try {
      const creating = addEventType(harness.context, harness.context.orm.em.fork(), ACTOR, tenant.id, {
        name: 'UNAUDITABLE',
        description: 'x',
        isPrivate: false,
      });
      await expect(creating).rejects.toThrow('the audit write failed');
      const { n } = await queryOne(
        harness,
        "select count(*)::int as n from event_type where tenant_id = ? and name = 'UNAUDITABLE'",
        [tenant.id],
      );
      expect(n).toBe(0);
    } finally {
      await connection.execute('drop trigger refuse_unauditable on audit_outbox');
      await connection.execute('drop function refuse_unauditable()');
    }
  });
});

describe('webhooks', () => {
  it('the signing secret is in no entry, staged or recorded', async () => {
    const { secret, id } = await answerOf('POST', '/v1/webhooks', { url: 'https://hooks.example.test/secret' });
    await answerOf('PATCH', `/v1/webhooks/${id}`, { url: 'https://hooks.example.test/moved' });
    const entries = await entriesAbout(id, 2);
    expect(JSON.stringify(entries)).not.toContain(secret);
    expect(entries.map((entry) => Object.keys(entry.after))).not.toContainEqual(expect.arrayContaining(['secret']));
  });
});

describe('rules of a rule set', () => {
  it('adding, changing and removing a rule are audited as rule.created, .updated and .deleted, naming the set', async () => {
    const set = await answerOf('POST', SETS, { name: 'Rules', isActive: false });
    const product = await answerOf('POST', '/v1/products', { name: 'Loaf', identifiers: ['SKU-LOAF'] });
    const added = await answerOf('POST', `${SETS}/${set.id}/rules`, basketRule('Loaf bought', product.id));
    const changed = await answerOf('PATCH', `${SETS}/${set.id}/rules/${added.id}`, { priority: 9 });
    await answerOf('DELETE', `${SETS}/${set.id}/rules/${added.id}`);

    const entries = await entriesAbout(added.id, 3);
    expect(entries.map(({ action, resourceType, actor }) => [action, resourceType, actor])).toEqual([
      ['rule.created', 'rule', ACTOR],
      ['rule.updated', 'rule', ACTOR],
      ['rule.deleted', 'rule', ACTOR],
    ]);
    const inSet = (rule: Json) => ({ ruleSetId: set.id, ...rule });
    expect(entries.map(({ before, after }) => ({ before, after }))).toEqual([
      { before: null, after: inSet(added) },
      { before: inSet(added), after: inSet(changed) },
      { before: inSet(changed), after: null },
    ]);
  });

  it('a change of a rule that is not in the set, or one the checks refuse, leaves no entry', async () => {
    const set = await answerOf('POST', SETS, { name: 'Refusals', isActive: false });
    await expectRefusedUnaudited('PATCH', `${SETS}/${set.id}/rules/${randomUUID()}`, { priority: 2 }, 404);
    await expectRefusedUnaudited('DELETE', `${SETS}/${set.id}/rules/${randomUUID()}`, undefined, 404);
    await expectRefusedUnaudited('POST', `${SETS}/${set.id}/rules`, basketRule('Unknown', randomUUID(), true), 400);
  });
});

describe('manual reviews', () => {
  it('POST /receipts/{id}/reviews is audited as receipt.reviewed with the status before and after', async () => {
    await registerMember(harness, tenant, admin, 'shopper');
    const receipt = await answerOf('POST', '/v1/receipts', {
      useParser: false,
      submitter: { authIdentifier: 'shopper' },
      ocrConfidence: 0.9,
      total: { value: '12.50', confidence: 0.95 },
      lineItems: [],
    });
    const review = await answerOf('POST', `/v1/receipts/${receipt.id}/reviews`, {
      verdict: 'REJECT',
      reason: 'SUSPICIOUS',
      comment: 'the same till slip twice',
    });

    const [entry] = await entriesAbout(receipt.id, 1);
    expect(entry).toMatchObject({
      action: 'receipt.reviewed',
      resourceType: 'receipt',
      actor: ACTOR,
      before: { status: 'PENDING' },
      after: { status: 'REJECTED', reviewId: review.id, verdict: 'REJECT', reason: 'SUSPICIOUS' },
    });
  });

  it('a review of a receipt that does not exist leaves no entry', async () => {
    await expectRefusedUnaudited(
      'POST',
      `/v1/receipts/${randomUUID()}/reviews`,
      { verdict: 'AUTHORIZE', reason: 'VERIFIED' },
      404,
    );
  });
});

describe('members', () => {
  const profile = {
    familyName: 'Quill',
    givenName: 'Zephyrine',
    emailAddress: 'zephyrine.quill@example.com',
    telephoneNumber: '+44 113 496 0123',
    gender: 'FEMALE',
  };
  const personalValues = [...Object.values(profile).filter((value) => value !== 'FEMALE'), 'Knaresborough'];

  it('registration, restriction, changes and erasure by an admin are audited, and erasure leaves no personal data in the log', async () => {
    const member = await answerOf('POST', '/v1/users', {
      isRestricted: false,
      authIdentifier: 'member-audited',
      externalIdentifier: 'crm-77',
      profile,
    });
    await answerOf('PATCH', `/v1/users/${member.id}`, { isRestricted: true });
    await answerOf('PATCH', `/v1/users/${member.id}`, { profile: { city: 'Knaresborough' } });
    await answerOf('PATCH', `/v1/users/${member.id}`, { isRestricted: false, externalIdentifier: 'crm-78' });
    await answerOf('DELETE', `/v1/users/${member.id}`);

    const entries = await entriesAbout(member.id, 5);
    expect(entries.map(({ action, resourceType, actor }) => [action, resourceType, actor])).toEqual([
      ['user.created', 'user', ACTOR],
      ['user.restricted', 'user', ACTOR],
      ['user.updated', 'user', ACTOR],
      ['user.unrestricted', 'user', ACTOR],
      ['user.erased', 'user', ACTOR],
    ]);
    const kept = {
      id: member.id,
      accountNumber: member.accountNumber,
      authIdentifier: 'member-audited',
      externalIdentifier: 'crm-77',
      isRestricted: false,
      linkedVenues: [],
      erasedAt: null,
    };
    const [created, restricted, changed, unrestricted, erased] = entries as [Entry, Entry, Entry, Entry, Entry];
    expect(created.before).toBeNull();
    expect(created.after).toEqual({
      ...kept,
      changedPersonalFields: [
        'flags',
        'profile.emailAddress',
        'profile.familyName',
        'profile.gender',
        'profile.givenName',
        'profile.telephoneNumber',
      ],
    });
    expect([restricted.before, restricted.after]).toEqual([
      kept,
      { ...kept, isRestricted: true, changedPersonalFields: [] },
    ]);
    expect(changed.after).toEqual({ ...kept, isRestricted: true, changedPersonalFields: ['profile.city'] });
    expect([unrestricted.before.isRestricted, unrestricted.after]).toEqual([
      true,
      { ...kept, externalIdentifier: 'crm-78', changedPersonalFields: [] },
    ]);
    expect(erased.after).toMatchObject({
      ...kept,
      externalIdentifier: 'crm-78',
      erasedAt: expect.any(String),
      changedPersonalFields: [
        'flags',
        'profile.city',
        'profile.emailAddress',
        'profile.familyName',
        'profile.gender',
        'profile.givenName',
        'profile.telephoneNumber',
      ],
    });

    // Neither the log's answer nor its rows (recorded or still staged) hold a value the erasure removed.
    const stored = await queryOne(
      harness,
      `select coalesce((select json_agg(e)::text from audit_entry e where tenant_id = ?), '')
           || coalesce((select json_agg(o)::text from audit_outbox o where tenant_id = ?), '') as text`,
      [tenant.id, tenant.id],
    );
    for (const value of personalValues) {
      expect(JSON.stringify(entries)).not.toContain(value);
      expect(stored.text).not.toContain(value);
    }
  });

  it("a member's own registration and changes (user token) are not admin changes: no entry", async () => {
    const token = await harness.userToken(tenant, 'self-made');
    const before = await entriesStagedOrRecorded();
    const registered = await harness.request(tenant, 'POST', '/v1/users', {
      token,
      body: {
        isRestricted: false,
        profile: { ...profile, emailAddress: 'self@example.com', telephoneNumber: '+44 113 496 0001' },
      },
    });
    expect(registered.status).toBe(201);
    const changed = await harness.request(tenant, 'PATCH', '/v1/users/me', {
      token,
      body: { profile: { city: 'York' } },
    });
    expect(changed.status).toBe(200);
    expect(await entriesStagedOrRecorded()).toBe(before);
  });

  it('a change refused by the profile checks, or of an unknown member, leaves no entry', async () => {
    const member = await answerOf('POST', '/v1/users', {
      isRestricted: false,
      profile: { ...profile, emailAddress: 'refused@example.com', telephoneNumber: '+44 113 496 0002' },
    });
    await answerOf('POST', '/v1/users', {
      isRestricted: false,
      profile: { ...profile, emailAddress: 'taken@example.com', telephoneNumber: '+44 113 496 0003' },
    });
    // The profile fails its bounds only once merged and checked in the service: 400 BadRequestError.
    await expectRefusedUnaudited('PATCH', `/v1/users/${member.id}`, { profile: { emailAddress: 'not an email' } }, 400);
    // Another member's email: 422 UserExistsError.
    await expectRefusedUnaudited(
      'PATCH',
      `/v1/users/${member.id}`,
      { profile: { emailAddress: 'taken@example.com' } },
      422,
    );
    await expectRefusedUnaudited('DELETE', `/v1/users/${randomUUID()}`, undefined, 404);
  });
});
