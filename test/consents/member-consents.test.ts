import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, queryOne, type Harness, type Json } from '../support/harness.js';
import { consentWorld, NEWS_TEXT, TERMS_TEXT } from './consent-world.js';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

const { world, register, registered, give, membersCount, consentRows, ownConsents, patchOwn, profile } = consentWorld(
  () => harness,
);

// issue 23: "Registration with consentsDefinition: [{type: {id}, checked}] and ?locale=: each consent stored with the
// locale's description (falling back to the default locale, recorded as such)"
describe('registration with consents', () => {
  it('stores each consent with the text in the requested locale, shown in the member view', async () => {
    const w = await world();
    const sent = Date.now();
    const response = await register(w, 'ana', give(w, true, false), 'fr');
    const answered = Date.now();
    expect(response.status).toBe(201);
    const member = await dataOf<Json>(response);
    // decisions §13: "A stored consent: {type: {id, name}, version, locale, description, checked, givenAt}"
    expect(member.consents).toEqual([
      {
        type: { id: w.news.id, name: 'Newsletter' },
        version: 1,
        locale: 'fr-CA',
        requestedLocale: 'fr',
        description: NEWS_TEXT['fr-CA'],
        checked: false,
        givenAt: expect.any(String),
      },
      {
        type: { id: w.terms.id, name: 'Terms' },
        version: 1,
        locale: 'fr',
        requestedLocale: 'fr',
        description: TERMS_TEXT.fr,
        checked: true,
        givenAt: member.consents[0].givenAt,
      },
    ]);
    // Given during the registration itself, however long it took.
    expect(Date.parse(member.consents[0].givenAt)).toBeGreaterThanOrEqual(sent);
    expect(Date.parse(member.consents[0].givenAt)).toBeLessThanOrEqual(answered);
  });

  // Brief of the consents work: "else the same language (fr-CA → fr); else the type's defaultLocale, recorded as such"
  it('falls back to the same language, then to the default locale, and records the locale asked for', async () => {
    const w = await world();
    const cases: [string | undefined, string, string | null][] = [
      ['fr', 'fr', 'fr'],
      ['fr-CA', 'fr', 'fr-CA'],
      ['FR-ca', 'fr', 'FR-ca'],
      ['pt-BR', 'pt-BR', 'pt-BR'],
      ['pt', 'pt-BR', 'pt'],
      ['de-DE', 'en', 'de-DE'],
      [undefined, 'en', null],
    ];
    for (const [index, [asked, locale, requestedLocale]] of cases.entries()) {
      const member = await registered(w, `fallback-${index}`, give(w), asked);
      expect(member.consents[0], String(asked)).toMatchObject({
        locale,
        requestedLocale,
        description: TERMS_TEXT[locale as keyof typeof TERMS_TEXT],
      });
    }
  });

  // issue 23: "a required type left unchecked or missing is 400 BadRequestError naming it"
  it('a required type left unchecked, or missing, is 400 BadRequestError naming it, and no member is created', async () => {
    const w = await world();
    for (const consents of [give(w, false, true), [{ type: { id: w.news.id }, checked: true }], [], undefined]) {
      const response = await register(w, 'refused', consents, 'en');
      expect(response.status, JSON.stringify(consents)).toBe(400);
      const body = await jsonOf(response);
      expect(body.data.name).toBe('BadRequestError');
      expect(body.data.errors).toEqual([
        {
          property: 'consentsDefinition',
          constraints: { required: expect.stringContaining(`"Terms" (${w.terms.id})`) },
          children: [],
        },
      ]);
      expect(body.message).toContain('Terms');
    }
    expect(await membersCount(w)).toBe(0);
  });

  // issue 23: "an unknown type id is 400"
  it("an unknown type id, another tenant's type, or a type given twice is 400, and no member is created", async () => {
    const w = await world();
    const other = await world();
    const cases: [Json, string][] = [
      [[...give(w), { type: { id: randomUUID() }, checked: true }], 'consentsDefinition.1.type.id'],
      [[...give(w), { type: { id: 'terms' }, checked: true }], 'consentsDefinition.1.type.id'],
      [[...give(w), { type: { id: other.news.id }, checked: true }], 'consentsDefinition.1.type.id'],
      [[...give(w), { type: { id: w.terms.id }, checked: false }], 'consentsDefinition.1.type.id'],
    ];
    for (const [consents, property] of cases) {
      const response = await register(w, 'unknown', consents);
      expect(response.status, JSON.stringify(consents)).toBe(400);
      const body = await jsonOf(response);
      expect(body.data.name).toBe('BadRequestError');
      expect(body.data.errors.map((error: Json) => error.property)).toEqual([property]);
    }
    expect(await membersCount(w)).toBe(0);
  });

  it('refuses bad values of consentsDefinition, and a ?locale= longer than 64 characters, with 400', async () => {
    const w = await world();
    const bad: Json[] = [
      'yes',
      [{ type: { id: w.terms.id } }],
      [{ type: { id: w.terms.id }, checked: 'true' }],
      [{ type: {}, checked: true }],
      [{ type: { id: '' }, checked: true }],
      [{ type: w.terms.id, checked: true }],
      [{ type: { id: w.terms.id, name: 'Terms' }, checked: true }],
      [{ type: { id: w.terms.id }, checked: true, givenAt: '2020-01-01' }],
      Array.from({ length: 101 }, () => ({ type: { id: w.terms.id }, checked: true })),
    ];
    for (const consents of bad) {
      const response = await register(w, 'bad', consents);
      expect(response.status, JSON.stringify(consents).slice(0, 80)).toBe(400);
      const body = await jsonOf(response);
      expect(body.data.name).toBe('BadRequestError');
      const errors = body.data.errors as { property: string }[];
      expect(errors.every((error) => error.property.startsWith('consentsDefinition'))).toBe(true);
    }
    const response = await register(w, 'bad', give(w), `en-${'a'.repeat(62)}`);
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data).toMatchObject({ name: 'ValidationError', errors: [{ property: 'locale' }] });
    expect(await membersCount(w)).toBe(0);
  });

  it('a user token registering itself stores its consents too', async () => {
    const w = await world();
    const token = await harness.userToken(w.tenant, 'self');
    const response = await harness.request(w.tenant, 'POST', '/v1/users?locale=en-GB', {
      token,
      body: { isRestricted: false, profile: profile('self'), consentsDefinition: give(w, true, true) },
    });
    expect(response.status).toBe(201);
    expect((await dataOf<Json>(response)).consents.map((consent: Json) => [consent.type.name, consent.locale])).toEqual(
      [
        ['Newsletter', 'en'],
        ['Terms', 'en'],
      ],
    );
  });

  // docs/api-conventions.md#idempotency: "the same key and body within 24 h answer the first answer again"
  it('a replay of POST /users with an Idempotency-Key answers the same member with its consents, stored once', async () => {
    const w = await world();
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await register(w, 'replayed', give(w, true, true), 'fr', headers);
    const again = await register(w, 'replayed', give(w, true, true), 'fr', headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    const member = await dataOf<Json>(first);
    expect(member.consents).toHaveLength(2);
    expect(await dataOf(again)).toEqual(member);
    expect(await consentRows(w, member.id)).toHaveLength(2);
  });

  // docs/api-conventions.md#idempotency: "the same key with another request (its query string included) is 422
  // IdempotencyKeyReusedError"; the query's locale chooses the text stored.
  it('the same Idempotency-Key with another ?locale= is 422, not the first answer', async () => {
    const w = await world();
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await register(w, 'query', give(w, true), 'fr', headers);
    expect(first.status).toBe(201);
    const again = await register(w, 'query', give(w, true), 'en', headers);
    expect(again.status).toBe(422);
    expect((await jsonOf(again)).data.name).toBe('IdempotencyKeyReusedError');
  });

  // docs/consents.md#registration: "ids are compared without regard to case, as GET /v1/consent_types/{id} does"
  it('takes the id of a consent type in upper case, as GET /consent_types/{id} does', async () => {
    const w = await world();
    const upper = w.terms.id.toUpperCase();
    expect((await harness.request(w.tenant, 'GET', `/v1/consent_types/${upper}`, { token: w.admin })).status).toBe(200);
    const member = await registered(w, 'upper', [{ type: { id: upper }, checked: true }], 'en');
    expect(member.consents).toEqual([
      expect.objectContaining({ type: { id: w.terms.id, name: 'Terms' }, checked: true }),
    ]);
    const changed = await patchOwn(w, 'upper', [{ type: { id: upper }, checked: false }]);
    expect(changed.status).toBe(200);
    expect((await dataOf<Json[]>(changed))[0]).toMatchObject({ type: { id: w.terms.id }, checked: false });
    const twice = await patchOwn(w, 'upper', [
      { type: { id: upper }, checked: true },
      { type: { id: w.terms.id }, checked: true },
    ]);
    expect(twice.status).toBe(400);
    expect((await jsonOf(twice)).data.errors.map((error: Json) => error.property)).toEqual(['1.type.id']);
  });
});

// issue 23: "GET /v1/users/{id}/consents, GET/PATCH /v1/users/me/consents (a member may withdraw or give a consent;
// every change is kept as history with its time), and consents visible in the user view"
describe("a member's consents", () => {
  it('GET /users/{id}/consents (read:users, any identifier) and GET /users/me/consents answer the current ones with history', async () => {
    const w = await world();
    const member = await registered(w, 'reader', give(w, true), 'fr');
    const reader = await harness.adminToken(w.tenant, ['read:users']);
    for (const identifier of [member.id, 'reader', String(member.accountNumber)]) {
      const response = await harness.request(w.tenant, 'GET', `/v1/users/${identifier}/consents`, { token: reader });
      expect(response.status).toBe(200);
      expect(await dataOf(response)).toEqual([{ ...member.consents[0], history: [], historyCount: 0 }]);
    }
    expect(await ownConsents(w, 'reader')).toEqual([{ ...member.consents[0], history: [], historyCount: 0 }]);
    // The member routes: the member view carries the current consents.
    for (const path of [
      `/v1/users/${member.id}`,
      `/v1/users?filter=${encodeURIComponent("authIdentifier:(eq:'reader')")}`,
    ]) {
      const data = await dataOf<Json>(await harness.request(w.tenant, 'GET', path, { token: w.admin }));
      expect(Array.isArray(data) ? data[0].consents : data.consents).toEqual(member.consents);
    }
    const own = await harness.request(w.tenant, 'GET', '/v1/users/me', {
      token: await harness.userToken(w.tenant, 'reader'),
    });
    expect((await dataOf(own)).consents).toEqual(member.consents);
    const changed = await harness.request(w.tenant, 'PATCH', `/v1/users/${member.id}`, {
      token: w.admin,
      body: { externalIdentifier: 'crm-7' },
    });
    expect((await dataOf(changed)).consents).toEqual(member.consents);
  });

  // shared/members/member-views.ts: "A member it keeps nothing about is absent from the map": its view is the plain member's.
  it('a member without consents has no consents in its view, and an empty list of them', async () => {
    const tenant = await harness.createTenant();
    const admin = await harness.adminToken(tenant, ['admin:users']);
    const response = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: { isRestricted: false, authIdentifier: 'plain', profile: profile('plain') },
    });
    expect(await dataOf(response)).not.toHaveProperty('consents');
    expect(await dataOf(await harness.request(tenant, 'GET', '/v1/users/plain/consents', { token: admin }))).toEqual(
      [],
    );
  });

  it('PATCH gives and withdraws consents, a required one included, each change kept with its time, newest first', async () => {
    const w = await world();
    await registered(w, 'changer', give(w, true, false), 'en');
    const withdrawn = await patchOwn(w, 'changer', give(w, false, true), 'fr-CA');
    expect(withdrawn.status).toBe(200);
    // The consents to the types the request named, in its order, as the GET shows them.
    const after = await dataOf<Json[]>(withdrawn);
    const [news, terms] = await ownConsents(w, 'changer');
    expect(after).toEqual([terms, news]);
    expect(terms).toMatchObject({
      checked: false,
      locale: 'fr',
      requestedLocale: 'fr-CA',
      description: TERMS_TEXT.fr,
      history: [{ checked: true, locale: 'en', description: TERMS_TEXT.en, version: 1 }],
    });
    expect(news).toMatchObject({
      checked: true,
      locale: 'fr-CA',
      description: NEWS_TEXT['fr-CA'],
      history: [{ checked: false, locale: 'en' }],
    });
    expect(Date.parse(terms.givenAt)).toBeGreaterThanOrEqual(Date.parse(terms.history[0].givenAt));

    await patchOwn(w, 'changer', give(w, true));
    const [, termsAgain] = await ownConsents(w, 'changer');
    expect([termsAgain.checked, ...termsAgain.history.map((state: Json) => state.checked)]).toEqual([
      true,
      false,
      true,
    ]);
  });

  // Brief of the consents work: "a choice equal to the current one for the same version appends nothing"
  it('an answer equal to the current one appends nothing', async () => {
    const w = await world();
    const member = await registered(w, 'steady', give(w, true, false));
    const response = await patchOwn(w, 'steady', give(w, true, false), 'fr');
    expect(response.status).toBe(200);
    expect(await consentRows(w, member.id)).toHaveLength(2);
    expect((await dataOf<Json[]>(response)).every((consent) => consent.history.length === 0)).toBe(true);
  });

  // issue 23: "Changing a description makes a new version; a stored consent keeps the version and the exact text the member saw."
  it('a consent keeps the version and the text the member saw after the description changes', async () => {
    const w = await world();
    await registered(w, 'versioned', give(w, true), 'fr');
    const newText = { ...TERMS_TEXT, fr: "J'accepte les nouvelles conditions." };
    await harness.request(w.tenant, 'PATCH', `/v1/consent_types/${w.terms.id}`, {
      token: w.admin,
      body: { descriptions: newText },
    });
    const [kept] = await ownConsents(w, 'versioned');
    expect(kept).toMatchObject({ version: 1, description: TERMS_TEXT.fr, checked: true });
    // The same answer to the new version is a new consent, to the new text.
    const [renewed] = await dataOf<Json[]>(await patchOwn(w, 'versioned', give(w, true), 'fr'));
    expect(renewed).toMatchObject({
      version: 2,
      description: newText.fr,
      checked: true,
      history: [{ version: 1, description: TERMS_TEXT.fr, checked: true }],
    });
  });

  // decisions §12: "Body validation elsewhere is 400 ValidationError" (registration's BadRequestError is its own row).
  it('PATCH refuses unknown, foreign and repeated types with 400 ValidationError, and bad bodies with 400, changing nothing', async () => {
    const w = await world();
    const other = await world();
    const member = await registered(w, 'strict', give(w, true));
    const cases: [Json, string][] = [
      [[{ type: { id: randomUUID() }, checked: true }], '0.type.id'],
      [[{ type: { id: other.terms.id }, checked: true }], '0.type.id'],
      [
        [
          { type: { id: w.news.id }, checked: true },
          { type: { id: w.news.id }, checked: false },
        ],
        '1.type.id',
      ],
    ];
    for (const [body, property] of cases) {
      const response = await patchOwn(w, 'strict', body);
      expect(response.status).toBe(400);
      const answer = await jsonOf(response);
      expect(answer.data.name).toBe('ValidationError');
      expect(answer.data.errors.map((error: Json) => error.property)).toEqual([property]);
    }
    for (const body of [
      { type: { id: w.news.id }, checked: true },
      [{ type: { id: w.news.id } }],
      [{ type: { id: w.news.id }, checked: 1 }],
      [{ type: { id: w.news.id }, checked: true, extra: 1 }],
      Array.from({ length: 101 }, () => ({ type: { id: w.news.id }, checked: true })),
    ]) {
      const response = await patchOwn(w, 'strict', body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect((await jsonOf(response)).data.name).toBe('ValidationError');
    }
    const badLocale = await patchOwn(w, 'strict', give(w, true), 'x'.repeat(65));
    expect(badLocale.status).toBe(400);
    expect((await jsonOf(badLocale)).data.errors[0].property).toBe('locale');
    expect(await consentRows(w, member.id)).toHaveLength(1);
  });

  it('a member’s concurrent PATCHes are made one after another: no answer is lost or repeated', async () => {
    const w = await world();
    const member = await registered(w, 'racer', give(w, true, false));
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => patchOwn(w, 'racer', [{ type: { id: w.news.id }, checked: i % 2 === 0 }])),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const news = (await consentRows(w, member.id)).filter((row) => row.consent_type_id === w.news.id);
    // Each appended row changes the answer: two equal answers in a row would mean a race appended both.
    for (let i = 1; i < news.length; i += 1) expect(news[i].checked).not.toBe(news[i - 1].checked);
    expect(news.length).toBeGreaterThan(1);
  });

  it('who may call: a user token reads and changes its own consents only; read:users reads any member’s', async () => {
    const w = await world();
    await registered(w, 'owner', give(w, true));
    const member = await harness.userToken(w.tenant, 'owner');
    const reader = await harness.adminToken(w.tenant, ['read:users']);
    expect((await harness.request(w.tenant, 'GET', '/v1/users/owner/consents', { token: member })).status).toBe(401);
    expect((await harness.request(w.tenant, 'GET', '/v1/users/me/consents', { token: reader })).status).toBe(401);
    const adminPatch = await harness.request(w.tenant, 'PATCH', '/v1/users/me/consents', {
      token: w.admin,
      body: give(w, false),
    });
    expect(adminPatch.status).toBe(401);
    // A token whose member is not registered has no consents to read or change.
    const stranger = await harness.userToken(w.tenant, 'stranger');
    expect((await harness.request(w.tenant, 'GET', '/v1/users/me/consents', { token: stranger })).status).toBe(404);
    expect(
      (await harness.request(w.tenant, 'PATCH', '/v1/users/me/consents', { token: stranger, body: give(w, true) }))
        .status,
    ).toBe(404);
  });

  it("another tenant's member is not found", async () => {
    const w = await world();
    const other = await world();
    const member = await registered(w, 'hidden', give(w, true));
    const otherReader = await harness.adminToken(other.tenant, ['read:users']);
    for (const identifier of [member.id, 'hidden']) {
      const response = await harness.request(other.tenant, 'GET', `/v1/users/${identifier}/consents`, {
        token: otherReader,
      });
      expect(response.status).toBe(404);
    }
  });
});

// issue 23: "DELETE /v1/users/{id} erases the consents' personal text as decisions §7 says, and keeps what is needed
// to prove the consent existed (type, version, time)"; decisions §7: "erases the profile (and consents' personal text)"
// docs/consents.md#a-members-consents: "`history` holds the 100 latest earlier answers to the type, newest first;
// `historyCount` says how many there are in all"
describe('history', () => {
  it('holds the 100 latest earlier answers per type, and says how many there are', async () => {
    const w = await world();
    const member = await registered(w, 'talker', give(w, true, true), 'en');
    // 150 more answers to the newsletter, alternating, the last one withdrawing it.
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into member_consent (tenant_id, member_id, consent_type_id, version, locale, description, checked, given_at)
         select ?, ?, ?, 1, 'en', 'Send me news.', n % 2 = 0, now() from generate_series(0, 149) n`,
        [w.tenant.id, member.id, w.news.id],
      );
    const [news, terms] = await ownConsents(w, 'talker');
    expect(news).toMatchObject({ checked: false, historyCount: 150 });
    expect(news!.history).toHaveLength(100);
    expect(news!.history.map((answer: Json) => answer.checked).slice(0, 3)).toEqual([true, false, true]);
    expect(terms).toMatchObject({ checked: true, history: [], historyCount: 0 });
  });
});

// docs/consents.md#erasure: "An erased member is gone: PATCH /v1/users/me/consents is 404 NotFoundError, a change
// waiting for the member while the erasure commits included, so no personal text is stored again"
describe('erased members', () => {
  it('an erased member cannot store consents again: PATCH is 404 and nothing is appended', async () => {
    const w = await world();
    const member = await registered(w, 'gone', give(w, true), 'fr');
    expect((await harness.request(w.tenant, 'DELETE', `/v1/users/${member.id}`, { token: w.admin })).status).toBe(200);
    const response = await patchOwn(w, 'gone', give(w, true, true), 'fr');
    expect(response.status).toBe(404);
    expect((await jsonOf(response)).data.name).toBe('NotFoundError');
    expect(await consentRows(w, member.id)).toEqual([expect.objectContaining({ description: null })]);
  });

  it('a PATCH waiting for the member while its erasure commits is 404, and stores no text', async () => {
    const w = await world();
    const member = await registered(w, 'racing', give(w, true), 'fr');
    const knex = harness.context.orm.em.getKnex();
    const waiting = async () =>
      (
        await queryOne(
          harness,
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      ).n;
    // The test holds the member's row: the erasure queues for it first, then the PATCH behind it.
    const holder = await knex.transaction();
    let erasure: Promise<Response>;
    let change: Promise<Response>;
    try {
      await holder.raw('select 1 from member where id = ? for update', [member.id]);
      erasure = harness.request(w.tenant, 'DELETE', `/v1/users/${member.id}`, { token: w.admin });
      await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBe(1);
      change = patchOwn(w, 'racing', give(w, true, true), 'fr');
      await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBe(2);
    } finally {
      await holder.commit();
    }
    expect((await erasure!).status).toBe(200);
    expect((await change!).status).toBe(404);
    expect(await consentRows(w, member.id)).toEqual([expect.objectContaining({ description: null })]);
  });
});

describe('erasure', () => {
  // docs/consents.md#erasure: "`locale`, the locale of the type's own text, stays: it is not the member's, and with
  // the version it finds the exact words the member agreed to"
  it('DELETE erases the text and the locale asked for of every consent row and keeps type, version, locale, answer and time', async () => {
    const w = await world();
    const member = await registered(w, 'erased', give(w, true, true), 'fr');
    await patchOwn(w, 'erased', [{ type: { id: w.news.id }, checked: false }], 'fr-CA');
    const before = await consentRows(w, member.id);
    expect(before).toHaveLength(3);

    const response = await harness.request(w.tenant, 'DELETE', `/v1/users/${member.id}`, { token: w.admin });
    expect(response.status).toBe(200);

    const after = await consentRows(w, member.id);
    expect(after).toEqual(before.map((row) => ({ ...row, requested_locale: null, description: null })));
    // The text of the version the member answered stays provable.
    const version = await queryOne(
      harness,
      'select descriptions from consent_type_version where consent_type_id = ? and version = 1',
      [w.terms.id],
    );
    expect(version.descriptions).toEqual(TERMS_TEXT);
    const reader = await harness.adminToken(w.tenant, ['read:users']);
    const [news, terms] = await dataOf<Json[]>(
      await harness.request(w.tenant, 'GET', `/v1/users/${member.id}/consents?sort=type.name&order=ASC`, {
        token: reader,
      }),
    );
    expect(terms).toEqual({
      type: { id: w.terms.id, name: 'Terms' },
      version: 1,
      locale: 'fr',
      requestedLocale: null,
      description: null,
      checked: true,
      givenAt: member.consents[1].givenAt,
      history: [],
      historyCount: 0,
    });
    expect(news.history).toEqual([expect.objectContaining({ checked: true, description: null, locale: 'fr-CA' })]);
  });
});
