import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, type Harness, type Json } from '../support/harness.js';
import { consentWorld, NEWS_TEXT, type World } from './consent-world.js';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

const { world, register, registered, give, patchOwn, membersCount } = consentWorld(() => harness);

const NEW_NEWS = { en: 'Send me news, weekly.', 'fr-CA': 'Envoyez-moi des nouvelles, chaque semaine.' };

async function newText(w: World, descriptions: Json = NEW_NEWS): Promise<void> {
  const response = await harness.request(w.tenant, 'PATCH', `/v1/consent_types/${w.news.id}`, {
    token: w.admin,
    body: { descriptions },
  });
  expect((await dataOf<Json>(response)).version).toBeGreaterThan(1);
}

// issue 23: "a stored consent keeps the version and the exact text the member saw"; docs/consents.md#versions: "a
// choice may say the `version` of the text the member was shown: one that is no longer the type's current version is
// 409 ConflictError naming the type and its current version"
describe('the version a member was shown', () => {
  it('registration with the current version stores it; with an older one it is 409 and no member is created', async () => {
    const w = await world();
    await newText(w);
    const stale = await register(w, 'stale', [
      ...give(w, true),
      { type: { id: w.news.id }, checked: true, version: 1 },
    ]);
    expect(stale.status).toBe(409);
    const body = await jsonOf(stale);
    expect(body.data).toMatchObject({ name: 'ConflictError', type: { id: w.news.id, name: 'Newsletter' }, version: 2 });
    expect(body.message).toContain('Newsletter');
    expect(await membersCount(w)).toBe(0);

    const member = await registered(w, 'current', [
      { type: { id: w.terms.id }, checked: true, version: 1 },
      { type: { id: w.news.id }, checked: true, version: 2 },
    ]);
    expect(member.consents.map((consent: Json) => [consent.type.name, consent.version, consent.description])).toEqual([
      ['Newsletter', 2, NEW_NEWS.en],
      ['Terms', 1, expect.any(String)],
    ]);
  });

  it('PATCH /users/me/consents with an older version is 409 and appends nothing; without one, the current is recorded', async () => {
    const w = await world();
    await registered(w, 'patcher', give(w, true));
    await newText(w);
    const stale = await patchOwn(w, 'patcher', [{ type: { id: w.news.id }, checked: true, version: 1 }]);
    expect(stale.status).toBe(409);
    expect((await jsonOf(stale)).data).toMatchObject({ name: 'ConflictError', version: 2 });
    const current = await patchOwn(w, 'patcher', [{ type: { id: w.news.id }, checked: true }]);
    expect((await dataOf<Json[]>(current))[0]).toMatchObject({ version: 2, checked: true, historyCount: 0 });
    for (const version of [0, 'two', 2.5]) {
      const response = await patchOwn(w, 'patcher', [{ type: { id: w.news.id }, checked: true, version }]);
      expect(response.status, String(version)).toBe(400);
    }
  });
});

// docs/consents.md#versions: "GET /v1/consent_types/{id}/versions lists the text of every version, newest first, and
// GET /v1/consent_types/{id}/versions/{version} reads one; both need the API key alone"
describe('the versions of a consent type', () => {
  it('lists every version newest first, and reads one, with the API key alone', async () => {
    const w = await world();
    await newText(w);
    const list = await harness.request(w.tenant, 'GET', `/v1/consent_types/${w.news.id}/versions`);
    expect(list.status).toBe(200);
    expect(list.headers.get('Content-Range')).toBe('consent_type_version 0-1/2');
    const versions = await dataOf<Json[]>(list);
    expect(versions).toEqual([
      { version: 2, defaultLocale: 'en', descriptions: NEW_NEWS, createdAt: expect.any(String) },
      { version: 1, defaultLocale: 'en', descriptions: NEWS_TEXT, createdAt: expect.any(String) },
    ]);
    const one = await harness.request(w.tenant, 'GET', `/v1/consent_types/${w.news.id}/versions/1`);
    expect(one.status).toBe(200);
    expect(await dataOf(one)).toEqual(versions[1]);
    const oldestFirst = await harness.request(w.tenant, 'GET', `/v1/consent_types/${w.news.id}/versions?order=ASC`);
    expect((await dataOf<Json[]>(oldestFirst)).map((version) => version.version)).toEqual([1, 2]);
  });

  it('an unknown type or version, or another tenant’s type, is 404', async () => {
    const w = await world();
    const other = await world();
    for (const path of [
      `/v1/consent_types/${w.news.id}/versions/2`,
      `/v1/consent_types/${w.news.id}/versions/0`,
      `/v1/consent_types/${w.news.id}/versions/one`,
      `/v1/consent_types/${other.news.id}/versions/1`,
      `/v1/consent_types/${other.news.id}/versions`,
      `/v1/consent_types/not-a-uuid/versions`,
    ]) {
      expect((await harness.request(w.tenant, 'GET', path)).status, path).toBe(404);
    }
  });

  // docs/consents.md#erasure: "the consent's `version` and `locale` find in the type's versions the exact words the
  // member agreed to"
  it("after a member's erasure, its consent's version and locale still find the words it agreed to", async () => {
    const w = await world();
    const member = await registered(w, 'erased', give(w, true, true), 'fr');
    await newText(w);
    expect((await harness.request(w.tenant, 'DELETE', `/v1/users/${member.id}`, { token: w.admin })).status).toBe(200);
    const reader = await harness.adminToken(w.tenant, ['read:users']);
    const [news] = await dataOf<Json[]>(
      await harness.request(w.tenant, 'GET', `/v1/users/${member.id}/consents`, { token: reader }),
    );
    expect(news).toMatchObject({ version: 1, locale: 'fr-CA', requestedLocale: null, description: null });
    const shown = await dataOf<Json>(
      await harness.request(w.tenant, 'GET', `/v1/consent_types/${w.news.id}/versions/${news!.version}`),
    );
    expect(shown.descriptions[news!.locale]).toBe(NEWS_TEXT['fr-CA']);
  });
});
