import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHarness,
  dataOf,
  jsonOf,
  queryOne,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users']);
});
afterAll(() => harness.close());

const TERMS = {
  name: 'Terms',
  required: true,
  defaultLocale: 'en',
  descriptions: { en: 'I accept the terms.', fr: "J'accepte les conditions." },
};

async function create(body: Json, token = admin, other = tenant): Promise<Response> {
  return harness.request(other, 'POST', '/v1/consent_types', { token, body });
}

async function created(body: Json): Promise<Json> {
  const response = await create(body);
  if (response.status !== 201) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return dataOf(response);
}

// decisions §13: "POST/GET/PATCH /v1/consent_types (admin:users; GET with the API key alone):
// {id, name, required, defaultLocale, descriptions: {<locale>: text}, version}"
describe('consent types', () => {
  it('POST creates a type at version 1, answered as decisions §13 shows it', async () => {
    const response = await create({ ...TERMS, name: 'Terms A' });
    expect(response.status).toBe(201);
    const type = await dataOf(response);
    expect(type).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Terms A',
      required: true,
      defaultLocale: 'en',
      descriptions: TERMS.descriptions,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // issue 23: "a stored consent keeps the version and the exact text the member saw": every version's text is kept.
    const version = await queryOne(
      harness,
      'select version, default_locale, descriptions from consent_type_version where consent_type_id = ?',
      [type.id],
    );
    expect(version).toEqual({ version: 1, default_locale: 'en', descriptions: TERMS.descriptions });
  });

  // issue 23: "readable with the API key alone so a sign-up form can show them"
  it('GET list and GET one need the API key alone', async () => {
    const type = await created({ ...TERMS, name: 'Readable' });
    const list = await harness.request(
      tenant,
      'GET',
      '/v1/consent_types?filter=' + encodeURIComponent("name:(eq:'Readable')"),
    );
    expect(list.status).toBe(200);
    expect(list.headers.get('Content-Range')).toBe('consent_type 0-0/1');
    expect(await dataOf(list)).toEqual([type]);
    const one = await harness.request(tenant, 'GET', `/v1/consent_types/${type.id}`);
    expect(one.status).toBe(200);
    expect(await dataOf(one)).toEqual(type);
    const member = await harness.userToken(tenant, 'reader');
    expect((await harness.request(tenant, 'GET', `/v1/consent_types/${type.id}`, { token: member })).status).toBe(200);
    // Without the API key, nothing.
    expect((await harness.request(tenant, 'GET', '/v1/consent_types', { apiKey: null })).status).toBe(403);
  });

  // docs/api-conventions.md#lists: the list helper's limit, sort, order and filter, over the fields the list names.
  it('the list sorts and filters on the fields it names, and refuses others with 400', async () => {
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:users']);
    for (const [name, required] of [
      ['B', false],
      ['A', true],
      ['C', false],
    ] as const)
      await create({ ...TERMS, name, required }, otherAdmin, other);
    const page = await harness.request(other, 'GET', '/v1/consent_types?sort=name&order=ASC&limit=2');
    expect(page.headers.get('Content-Range')).toBe('consent_type 0-1/3');
    expect((await dataOf<Json[]>(page)).map((type) => type.name)).toEqual(['A', 'B']);
    const optional = await harness.request(
      other,
      'GET',
      `/v1/consent_types?filter=${encodeURIComponent('required:(eq:!f)')}`,
    );
    expect((await dataOf<Json[]>(optional)).map((type) => type.name).toSorted()).toEqual(['B', 'C']);
    for (const query of ['sort=descriptions', `filter=${encodeURIComponent("descriptions:(eq:'x')")}`, 'limit=0']) {
      expect((await harness.request(other, 'GET', `/v1/consent_types?${query}`)).status, query).toBe(400);
    }
  });

  it('GET of an unknown or malformed id is 404', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      expect((await harness.request(tenant, 'GET', `/v1/consent_types/${id}`)).status).toBe(404);
    }
  });

  // issue 23: "Changing a description makes a new version"; decisions §13: "a change of descriptions raises version"
  it('PATCH of descriptions or defaultLocale raises the version and keeps each version’s text', async () => {
    const type = await created({ ...TERMS, name: 'Versioned' });
    const patch = (body: Json) =>
      harness.request(tenant, 'PATCH', `/v1/consent_types/${type.id}`, { token: admin, body });

    const renamed = await dataOf(await patch({ name: 'Versioned 2', required: false }));
    expect(renamed).toMatchObject({ name: 'Versioned 2', required: false, version: 1 });

    const sameText = await dataOf(
      await patch({ descriptions: { fr: TERMS.descriptions.fr, en: TERMS.descriptions.en } }),
    );
    expect(sameText).toMatchObject({ version: 1 });

    const newText = { en: 'I accept the new terms.', fr: "J'accepte les nouvelles conditions." };
    expect(await dataOf(await patch({ descriptions: newText }))).toMatchObject({ descriptions: newText, version: 2 });
    expect(await dataOf(await patch({ defaultLocale: 'fr' }))).toMatchObject({ defaultLocale: 'fr', version: 3 });

    const versions = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute(
        'select version, default_locale, descriptions from consent_type_version where consent_type_id = ? order by version',
        [type.id],
      );
    expect(versions).toEqual([
      { version: 1, default_locale: 'en', descriptions: TERMS.descriptions },
      { version: 2, default_locale: 'en', descriptions: newText },
      { version: 3, default_locale: 'fr', descriptions: newText },
    ]);
  });

  it('concurrent PATCHes of the text take one version each', async () => {
    const type = await created({ ...TERMS, name: 'Raced' });
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        harness.request(tenant, 'PATCH', `/v1/consent_types/${type.id}`, {
          token: admin,
          body: { descriptions: { en: `Text ${i}` } },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const versions = (await Promise.all(responses.map((response) => dataOf(response)))).map((t) => t.version);
    expect(versions.toSorted()).toEqual([2, 3, 4, 5, 6]);
  });

  // Validation: "defaultLocale must be a key of descriptions (400 naming it)"
  it('a defaultLocale that descriptions does not hold is 400 naming defaultLocale, on POST and on PATCH', async () => {
    const response = await create({ ...TERMS, name: 'No default', defaultLocale: 'de' });
    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body.data.errors[0]).toMatchObject({ property: 'defaultLocale', value: 'de' });
    expect(body.message).toMatch(/defaultLocale "de"/);

    const type = await created({ ...TERMS, name: 'Default kept' });
    const patched = await harness.request(tenant, 'PATCH', `/v1/consent_types/${type.id}`, {
      token: admin,
      body: { descriptions: { fr: 'Seulement en français.' } },
    });
    expect(patched.status).toBe(400);
    expect((await jsonOf(patched)).data.errors[0].property).toBe('defaultLocale');
    expect(await dataOf(await harness.request(tenant, 'GET', `/v1/consent_types/${type.id}`))).toMatchObject({
      descriptions: TERMS.descriptions,
      version: 1,
    });
  });

  it('refuses every bad value of each body field with 400 naming it', async () => {
    const bad: [string, Json][] = [
      ['name', { ...TERMS, name: '' }],
      ['name', { ...TERMS, name: 'x'.repeat(201) }],
      ['name', { ...TERMS, name: 5 }],
      ['required', { ...TERMS, required: 'yes' }],
      ['required', { name: 'r', defaultLocale: 'en', descriptions: TERMS.descriptions }],
      ['defaultLocale', { ...TERMS, defaultLocale: 'english' }],
      ['defaultLocale', { ...TERMS, defaultLocale: 'en_GB' }],
      ['descriptions', { ...TERMS, descriptions: {} }],
      ['descriptions', { ...TERMS, descriptions: 'I accept' }],
      ['descriptions.en', { ...TERMS, descriptions: { en: '' } }],
      ['descriptions.en', { ...TERMS, descriptions: { en: 'x'.repeat(8_001) } }],
      ['descriptions.en', { ...TERMS, descriptions: { en: 3 } }],
      ['descriptions.not a locale', { ...TERMS, descriptions: { en: 'ok', 'not a locale': 'x' } }],
      [
        'descriptions',
        {
          ...TERMS,
          descriptions: Object.fromEntries(
            Array.from({ length: 21 }, (_, i) => [`e${String.fromCharCode(97 + (i % 26))}-${i + 10}`, 'x']),
          ),
        },
      ],
      ['descriptions', { ...TERMS, descriptions: { en: 'one', EN: 'two' } }],
      ['descriptions', { ...TERMS, descriptions: { en: 'ok', [`en-${'abcdefgh-'.repeat(4)}x1`]: 'x' } }],
      ['version', { ...TERMS, version: 7 }],
      ['id', { ...TERMS, id: randomUUID() }],
    ];
    for (const [property, body] of bad) {
      const response = await create({ name: `Bad ${property}`, ...body });
      expect(response.status, `${property}: ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      const errors = (await jsonOf(response)).data.errors as { property: string }[];
      expect(errors.map((error) => error.property)).toContain(property);
    }
    const type = await created({ ...TERMS, name: 'Patch target' });
    for (const body of [{ required: null }, { descriptions: { en: '' } }, { version: 2 }, { name: '' }]) {
      const response = await harness.request(tenant, 'PATCH', `/v1/consent_types/${type.id}`, { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });

  // docs/consents.md#consent-types: "1 to 20 locales … each text 1 to 8,000 characters: the longest such body fits
  // under the 1 MiB body limit, so a type within the bounds is never refused as too large"
  it('a type at its bounds, written in the widest characters, is created, not 413', async () => {
    const widest = (character: string) =>
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`en-${100 + i}`, character.repeat(8_000)]));
    for (const [name, character] of [
      ['Widest emoji', '😀'],
      ['Widest escapes', '\u0001'],
    ] as const) {
      const descriptions = widest(character);
      const response = await create({ ...TERMS, name, defaultLocale: 'en-100', descriptions });
      expect(response.status, name).toBe(201);
      expect((await dataOf<Json>(response)).descriptions).toEqual(descriptions);
    }
  });

  // docs/consents.md#consent-types: "Tags are compared without regard to case"; "`defaultLocale` … is stored as the key
  // of `descriptions` spells it"
  it('a defaultLocale in another case than its key is taken, stored as the key spells it', async () => {
    const type = await created({ ...TERMS, name: 'Case', defaultLocale: 'EN' });
    expect(type).toMatchObject({ defaultLocale: 'en', version: 1 });
    const changed = await harness.request(tenant, 'PATCH', `/v1/consent_types/${type.id}`, {
      token: admin,
      body: { defaultLocale: 'FR', descriptions: { 'fr-ca': 'Oui', Fr: 'Oui.' } },
    });
    expect(await dataOf(changed)).toMatchObject({ defaultLocale: 'Fr', version: 2 });
    // The same default in another case is no new text.
    const same = await harness.request(tenant, 'PATCH', `/v1/consent_types/${type.id}`, {
      token: admin,
      body: { defaultLocale: 'fr' },
    });
    expect(await dataOf(same)).toMatchObject({ defaultLocale: 'Fr', version: 2 });
  });

  it('a name already used in the tenant is 409 ConflictError, on POST and on PATCH', async () => {
    await created({ ...TERMS, name: 'Taken' });
    const response = await create({ ...TERMS, name: 'Taken' });
    expect(response.status).toBe(409);
    expect((await jsonOf(response)).data.name).toBe('ConflictError');
    const other = await created({ ...TERMS, name: 'Other' });
    const patched = await harness.request(tenant, 'PATCH', `/v1/consent_types/${other.id}`, {
      token: admin,
      body: { name: 'Taken' },
    });
    expect(patched.status).toBe(409);
  });

  // docs/api-conventions.md#idempotency: "the same key and body within 24 h answer the first answer again"
  it('POST with an Idempotency-Key creates once', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const body = { ...TERMS, name: 'Once' };
    const first = await harness.request(tenant, 'POST', '/v1/consent_types', { token: admin, body, headers });
    const again = await harness.request(tenant, 'POST', '/v1/consent_types', { token: admin, body, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await dataOf(again)).toEqual(await dataOf(first));
    expect(await queryOne(harness, "select count(*)::int as n from consent_type where name = 'Once'")).toEqual({
      n: 1,
    });
  });

  // issue 23: "admin:users to manage"
  it('a user token, or an admin token without admin:users, cannot create or change a type', async () => {
    const type = await created({ ...TERMS, name: 'Guarded' });
    const member = await harness.userToken(tenant, 'someone');
    const reader = await harness.adminToken(tenant, ['read:users']);
    for (const token of [member, reader]) {
      expect((await create({ ...TERMS, name: 'Sneaky' }, token)).status).toBe(401);
      const patched = await harness.request(tenant, 'PATCH', `/v1/consent_types/${type.id}`, {
        token,
        body: { required: false },
      });
      expect(patched.status).toBe(401);
    }
    expect(await dataOf(await harness.request(tenant, 'GET', `/v1/consent_types/${type.id}`))).toMatchObject({
      required: true,
    });
  });

  it("another tenant's consent type is not found, neither read nor changed", async () => {
    const type = await created({ ...TERMS, name: 'Mine' });
    const other = await harness.createTenant();
    const otherAdmin = await harness.adminToken(other, ['admin:users']);
    expect((await harness.request(other, 'GET', `/v1/consent_types/${type.id}`)).status).toBe(404);
    const patched = await harness.request(other, 'PATCH', `/v1/consent_types/${type.id}`, {
      token: otherAdmin,
      body: { required: false },
    });
    expect(patched.status).toBe(404);
    expect(await dataOf(await harness.request(other, 'GET', '/v1/consent_types'))).toEqual([]);
    // The same name is free in another tenant.
    expect((await create({ ...TERMS, name: 'Mine' }, otherAdmin, other)).status).toBe(201);
  });

  // docs/api-conventions.md#audit-log: an admin's changes are audited.
  it('creating and changing a type stages an audit entry each', async () => {
    const type = await created({ ...TERMS, name: 'Audited' });
    await harness.request(tenant, 'PATCH', `/v1/consent_types/${type.id}`, { token: admin, body: { required: false } });
    const rows = await harness.context.orm.em
      .fork()
      .getConnection()
      .execute(
        `select job->>'action' as action from audit_outbox where tenant_id = ? and job->>'resourceId' = ?
          union all select action from audit_entry where tenant_id = ? and resource_id = ?`,
        [tenant.id, type.id, tenant.id, type.id],
      );
    expect(rows.map((row: Json) => row.action).toSorted()).toEqual(['consent_type.created', 'consent_type.updated']);
  });
});
