import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAuditEntry } from '../../shared/audit/audit-log.js';
import { createHarness, dataOf, jsonOf, queryOne, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let auditReader: string;

const names = ['A_B', 'AXB', 'PERCENT', 'QUOTED'];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types']);
  auditReader = await harness.adminToken(tenant, ['admin:tenant']);
  for (const name of names) {
    await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name, description: name, isPrivate: name === 'QUOTED' },
    });
  }
  const entries = [
    { subject: "o'brien", scopes: ['admin:event_types'], before: null, after: { colour: 'red' } },
    { subject: '100%_sure', scopes: ['admin:tenant', 'read:users'], before: { colour: 'red' }, after: { size: 2 } },
    { subject: 'plain', scopes: [], before: { size: 1 }, after: null },
  ];
  for (const [index, entry] of entries.entries()) {
    await recordAuditEntry(harness.context.orm.em.fork(), {
      id: randomUUID(),
      tenantId: tenant.id,
      actor: { subject: entry.subject, scopes: entry.scopes },
      action: `test.action_${index}`,
      resourceType: 'thing',
      resourceId: String(index),
      before: entry.before,
      after: entry.after,
      occurredAt: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
    });
  }
});
afterAll(() => harness.close());

const eventTypes = (query: string) => harness.request(tenant, 'GET', `/v1/event_types?${query}`);
const auditLog = (query: string) => harness.request(tenant, 'GET', `/v1/audit-log?${query}`, { token: auditReader });
const filter = (text: string) => `filter=${encodeURIComponent(text)}`;

async function namesOf(response: Response): Promise<string[]> {
  expect(response.status).toBe(200);
  return (await dataOf<{ name: string }[]>(response)).map((type) => type.name).sort();
}

async function subjectsOf(response: Response): Promise<string[]> {
  expect(response.status).toBe(200);
  return (await dataOf<{ actor: { subject: string } }[]>(response)).map((entry) => entry.actor.subject).sort();
}

async function expectFieldError(response: Response, property: string) {
  expect(response.status).toBe(400);
  const body = await jsonOf(response);
  expect(body).toMatchObject({ status: 'fail', data: { name: 'ValidationError' } });
  expect(body.data.errors[0].property).toBe(property);
  expect(body.message).toContain(property === 'filter' ? 'filter' : property);
}

// docs/api-conventions.md#filters: "operators eq neq gt lt in has like, !t/!f booleans, !n null, !(…) arrays, nested fields with dots"
describe('every operator, against PostgreSQL', () => {
  it('eq and neq, with !t and !f', async () => {
    expect(await namesOf(await eventTypes(filter("name:(eq:'A_B')")))).toEqual(['A_B']);
    expect(await namesOf(await eventTypes(filter('isPrivate:(eq:!t)')))).toEqual([
      'ORDER_PLACED',
      'QUOTED',
      'RECEIPT_REVIEWED',
      'REFERRAL_COMPLETED',
      'REFERRED_REGISTRATION',
    ]);
    expect(await namesOf(await eventTypes(filter("isPrivate:(eq:!f),name:(neq:'AXB')")))).toEqual(['A_B', 'PERCENT']);
  });

  it('in takes an array written !(…)', async () => {
    expect(await namesOf(await eventTypes(filter("name:(in:!('AXB','QUOTED','NOPE'))")))).toEqual(['AXB', 'QUOTED']);
  });

  it('gt and lt on dates (ISO 8601) and on text', async () => {
    expect(
      await subjectsOf(await auditLog(filter("occurredAt:(gt:'2026-01-01T12:00:00Z',lt:'2026-01-03T00:00:00Z')"))),
    ).toEqual(['100%_sure']);
    expect(await namesOf(await eventTypes(filter("name:(gt:'Q')")))).toEqual([
      'QUOTED',
      'RECEIPT_REVIEWED',
      'REFERRAL_COMPLETED',
      'REFERRED_REGISTRATION',
    ]);
  });

  // docs/api-conventions.md#filters: "like: % wildcard, case-insensitive"
  it('like: % is the wildcard, case does not matter, and _ is only itself', async () => {
    expect(await namesOf(await eventTypes(filter("name:(like:'a_%')")))).toEqual(['A_B']);
    expect(await namesOf(await eventTypes(filter("name:(like:'%x%')")))).toEqual(['AXB']);
    expect(await subjectsOf(await auditLog(filter("actor.subject:(like:'100!%%')")))).toEqual(['100%_sure']);
  });

  // docs/api-conventions.md#filters: "has: an array field holds the value, or an object field has the key"
  it('has on an array field and on an object field', async () => {
    expect(await subjectsOf(await auditLog(filter("actor.scopes:(has:'read:users')")))).toEqual(['100%_sure']);
    expect(await subjectsOf(await auditLog(filter("after:(has:'colour')")))).toEqual(["o'brien"]);
    expect(await subjectsOf(await auditLog(filter("before:(has:'size')")))).toEqual(['plain']);
  });

  it('!n is null, with eq and neq', async () => {
    expect(await subjectsOf(await auditLog(filter('before:(eq:!n)')))).toEqual(["o'brien"]);
    expect(await subjectsOf(await auditLog(filter('after:(neq:!n)')))).toEqual(['100%_sure', "o'brien"]);
  });

  it('dotted field names', async () => {
    expect(await subjectsOf(await auditLog(filter("actor.subject:(eq:'plain')")))).toEqual(['plain']);
  });
});

// Issue 3 §5: "injection attempts (quotes, %, _, SQL comments) … must come back as data or as 400, never as SQL."
describe('hostile filters come back as data or as 400', () => {
  it.each([
    "name:(eq:'A_B!' OR !'1!'=!'1')",
    "name:(eq:'A_B!'; DROP TABLE event_type; --')",
    "name:(like:'%!' OR 1=1 --')",
    "name:(eq:'A_B /* comment */')",
    "name:(in:!('A_B!') OR (!'1!'=!'1'))",
    "actor.subject:(eq:'o!'brien!' --')",
  ])('%s matches nothing and drops nothing', async (text) => {
    const response = text.startsWith('actor') ? await auditLog(filter(text)) : await eventTypes(filter(text));
    expect(response.status).toBe(200);
    expect(await dataOf<unknown[]>(response)).toEqual([]);
    expect((await queryOne(harness, 'select count(*)::int as n from event_type')).n).toBe(8);
  });

  it("a quote inside a value is data: o'brien is found by an exact match", async () => {
    expect(await subjectsOf(await auditLog(filter("actor.subject:(eq:'o!'brien')")))).toEqual(["o'brien"]);
  });

  it.each([
    ['unknown field', "secretHash:(eq:'x')", 'secretHash'],
    ['a field not filterable on this list', "description:(eq:'x')", 'description'],
    ['unknown operator', "name:(regex:'.*')", 'name'],
    ['wrong value type: string for boolean', "isPrivate:(eq:'true')", 'isPrivate'],
    ['wrong value type: number for text', 'name:(in:!(1,2))', 'name'],
    ['not a date', "createdAt:(gt:'yesterday')", 'createdAt'],
    ['like on a boolean', "isPrivate:(like:'%')", 'isPrivate'],
    ['has on a text field', "name:(has:'A')", 'name'],
    ['empty in', 'name:(in:!())', 'name'],
    ['a bare value instead of (op:value)', "name:'A_B'", 'name'],
    ['malformed O-Rison', "name:(eq:'unterminated", 'filter'],
    ['malformed O-Rison: stray parenthesis', "name:(eq:'A'))", 'filter'],
    ['deep nesting', `name:${'('.repeat(20_000)}`, 'filter'],
    ['prototype key', "__proto__:(eq:'x')", 'filter'],
    ['constructor key', "name:(constructor:'x')", 'filter'],
    ['overlong', `name:(eq:'${'A'.repeat(3000)}')`, 'filter'],
  ])('%s is 400 naming it', async (_case, text, property) => {
    await expectFieldError(await eventTypes(filter(text)), property);
  });
});

// docs/api-conventions.md#lists: "limit (default 10, maximum 1000, larger is 400), skip (default 0), sort, order (ASC/DESC) … Default order is newest first."
describe('paging and sorting', () => {
  it('limit, skip and Content-Range, 0-based and inclusive', async () => {
    // The database's collation decides where A_B sorts; the page must be that order's slice.
    const all = (await dataOf<{ name: string }[]>(await eventTypes('sort=name&order=ASC'))).map((type) => type.name);
    const response = await eventTypes('limit=2&skip=1&sort=name&order=ASC');
    expect(response.headers.get('content-range')).toBe('event_type 1-2/8');
    expect((await dataOf<{ name: string }[]>(response)).map((type) => type.name)).toEqual(all.slice(1, 3));
    expect((await eventTypes('skip=100')).headers.get('content-range')).toBe('event_type */8');
    expect((await eventTypes(filter("name:(eq:'NONE')"))).headers.get('content-range')).toBe('event_type */0');
  });

  it('defaults to 10 items, newest first', async () => {
    const response = await auditLog('');
    expect((await dataOf<{ actor: { subject: string } }[]>(response)).map((entry) => entry.actor.subject)).toEqual([
      'plain',
      '100%_sure',
      "o'brien",
    ]);
  });

  it.each([
    ['limit=1001', 'limit'],
    ['limit=0', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=-1', 'limit'],
    ['skip=-5', 'skip'],
    ['skip=1.5', 'skip'],
    ['sort=secretHash', 'sort'],
    ['sort=isPrivate', 'sort'],
    ['order=SIDEWAYS', 'order'],
  ])('%s is 400 naming the parameter', async (query, property) => {
    await expectFieldError(await eventTypes(query), property);
  });

  it('without limit a page holds 10 items, the newest first', async () => {
    const other = await harness.createTenant();
    const token = await harness.adminToken(other, ['admin:users']);
    for (let n = 1; n <= 12; n++) {
      const body = {
        isRestricted: false,
        authIdentifier: `member-${n}`,
        profile: { familyName: 'D', givenName: `${n}`, emailAddress: `m${n}@example.com` },
      };
      expect((await harness.request(other, 'POST', '/v1/users', { token, body })).status).toBe(201);
    }
    const response = await harness.request(other, 'GET', '/v1/users', { token });
    expect(response.headers.get('content-range')).toBe('user 0-9/12');
    const page = await dataOf<{ authIdentifier: string }[]>(response);
    expect(page.map((user) => user.authIdentifier)).toEqual(Array.from({ length: 10 }, (_, i) => `member-${12 - i}`));
  });

  it('limit=1000 is allowed', async () => {
    expect((await eventTypes('limit=1000')).status).toBe(200);
  });
});
