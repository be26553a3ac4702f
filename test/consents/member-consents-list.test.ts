import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, type Harness, type Json } from '../support/harness.js';
import { consentWorld, type World } from './consent-world.js';

let harness: Harness;
let w: World;
let reader: string;
let member: Json;
let offers: Json;

beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

const { world, registered, give, patchOwn } = consentWorld(() => harness);

beforeAll(async () => {
  w = await world();
  reader = await harness.adminToken(w.tenant, ['read:users']);
  offers = await dataOf(
    await harness.request(w.tenant, 'POST', '/v1/consent_types', {
      token: w.admin,
      body: {
        name: 'Partner offers',
        required: false,
        defaultLocale: 'en',
        descriptions: { en: 'Share with partners.' },
      },
    }),
  );
  // Terms and the newsletter at registration, then the partners' offers, then the newsletter withdrawn: the
  // newsletter's answer is the newest, the offers' the one before, the terms' the oldest.
  member = await registered(w, 'ada', give(w, true, true), 'en');
  await patchOwn(w, 'ada', [{ type: { id: offers.id }, checked: true }]);
  await patchOwn(w, 'ada', [{ type: { id: w.news.id }, checked: false }]);
});

const list = (path: string, token = reader) => harness.request(w.tenant, 'GET', path, { token });
const namesOf = async (response: Response) =>
  (await dataOf<Json[]>(response)).map((consent: Json) => consent.type.name);
const filtered = (filter: string) => `/v1/users/ada/consents?filter=${encodeURIComponent(filter)}`;

// decisions §14: "GET /v1/users/{id}/consents [is a list] like every other (list helper, Content-Range)"; decisions §3:
// "Every list: limit …, skip …, sort, order, filter …, and the header Content-Range … Default order is newest first."
describe("a member's consents, as a list", () => {
  it('answers the current answer per type, newest first, with Content-Range: consent a-b/n', async () => {
    const response = await list('/v1/users/ada/consents');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Range')).toBe('consent 0-2/3');
    const consents = await dataOf<Json[]>(response);
    expect(consents.map((consent) => consent.type.name)).toEqual(['Newsletter', 'Partner offers', 'Terms']);
    expect(consents[0]).toMatchObject({ checked: false, history: [{ checked: true }], historyCount: 1 });
  });

  it('pages with limit and skip, sorts and filters on the fields it names', async () => {
    const second = await list('/v1/users/ada/consents?limit=1&skip=1');
    expect(second.headers.get('Content-Range')).toBe('consent 1-1/3');
    expect(await namesOf(second)).toEqual(['Partner offers']);
    expect(await namesOf(await list('/v1/users/ada/consents?sort=type.name&order=asc'))).toEqual([
      'Newsletter',
      'Partner offers',
      'Terms',
    ]);
    const given = await list(filtered('checked:(eq:!t)'));
    expect(given.headers.get('Content-Range')).toBe('consent 0-1/2');
    expect(await namesOf(given)).toEqual(['Partner offers', 'Terms']);
    expect(await namesOf(await list(filtered(`type.id:(eq:'${w.terms.id}')`)))).toEqual(['Terms']);
    expect(await namesOf(await list(filtered("type.name:(like:'%news%')")))).toEqual(['Newsletter']);
    // Filters apply to the current answers: the newsletter was given once, but is withdrawn now.
    expect(await namesOf(await list(filtered(`type.id:(eq:'${w.news.id}'),checked:(eq:!t)`)))).toEqual([]);
  });

  it("the member's own list is the same list", async () => {
    const token = await harness.userToken(w.tenant, 'ada');
    const own = await list('/v1/users/me/consents?limit=2', token);
    expect(own.headers.get('Content-Range')).toBe('consent 0-1/3');
    expect(await dataOf(own)).toEqual(await dataOf(await list(`/v1/users/${member.id}/consents?limit=2`)));
  });

  it('an empty page is consent */<total>: */0 when nothing matches', async () => {
    const none = await list(filtered("type.name:(eq:'Cookies')"));
    expect(none.headers.get('Content-Range')).toBe('consent */0');
    expect(await dataOf(none)).toEqual([]);
    const beyond = await list('/v1/users/ada/consents?skip=10');
    expect(beyond.headers.get('Content-Range')).toBe('consent */3');
    expect(await dataOf(beyond)).toEqual([]);
  });

  it('a parameter out of bounds, an unsortable or unknown field is 400 ValidationError naming it', async () => {
    for (const [query, property] of [
      ['limit=1001', 'limit'],
      ['sort=description', 'sort'],
      [`filter=${encodeURIComponent("description:(eq:'x')")}`, 'description'],
      [`filter=${encodeURIComponent("givenAt:(eq:'yesterday')")}`, 'givenAt'],
    ]) {
      const response = await list(`/v1/users/ada/consents?${query}`);
      expect(response.status, query).toBe(400);
      expect(await jsonOf(response)).toMatchObject({ data: { name: 'ValidationError', errors: [{ property }] } });
    }
  });

  // docs/consents.md#a-members-consents: PATCH "answers the member's consents to the types it named, in its order".
  it('PATCH answers the consents to the types it named, in its order, as the list shows them', async () => {
    const changed = await patchOwn(w, 'ada', [
      { type: { id: offers.id }, checked: false },
      { type: { id: w.terms.id }, checked: true },
    ]);
    expect(changed.status).toBe(200);
    const answered = await dataOf<Json[]>(changed);
    expect(answered.map((consent) => consent.type.name)).toEqual(['Partner offers', 'Terms']);
    const listed = await dataOf<Json[]>(await list('/v1/users/ada/consents'));
    expect(answered).toEqual([
      listed.find((consent) => consent.type.id === offers.id),
      listed.find((consent) => consent.type.id === w.terms.id),
    ]);
  });
});
