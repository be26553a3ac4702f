import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, type Harness, type Json } from '../support/harness.js';
import { consentWorld, NEWS_TEXT, TERMS_TEXT } from './consent-world.js';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

const { world, register, registered, give, patchOwn } = consentWorld(() => harness);

const stored = (consent: Json) => [consent.type.name, consent.locale, consent.requestedLocale];

// rewards-interface "POST /users?locale=": "Query `locale` (string, optional): the user's active locale, used to
// capture the relevant consent description"; docs/consents.md#locales: "`_` is read as `-`; a value that is no
// language tag is kept as asked in `requestedLocale`, and the type's default locale is used"
describe('?locale= as clients send it', () => {
  it.each([
    ['en_US', 'en'],
    ['fr_CA', 'fr'],
    ['pt_BR', 'pt-BR'],
    ['fr-CA-u-ca-gregory', 'fr'],
    ['pt-BR-x-formal', 'pt-BR'],
    ['english', 'en'],
    ['x', 'en'],
    ['fr CA', 'en'],
  ])('registration with ?locale=%s stores the text of %s and the locale as asked', async (asked, locale) => {
    const w = await world();
    const member = await registered(w, 'asker', give(w, true), asked);
    expect(member.consents.map(stored)).toEqual([['Terms', locale, asked]]);
    expect(member.consents[0].description).toBe(TERMS_TEXT[locale as keyof typeof TERMS_TEXT]);
  });

  it('an empty ?locale= is no locale asked: the default locale, and requestedLocale null', async () => {
    const w = await world();
    const member = await registered(w, 'empty', give(w, true, true), '');
    expect(member.consents.map(stored)).toEqual([
      ['Newsletter', 'en', null],
      ['Terms', 'en', null],
    ]);
  });

  it('a ?locale= of 64 characters is taken, one of 65 is 400 ValidationError naming locale', async () => {
    const w = await world();
    const longest = `fr-${'a'.repeat(61)}`;
    expect((await registered(w, 'long', give(w, true), longest)).consents.map(stored)).toEqual([
      ['Terms', 'en', longest],
    ]);
    const response = await register(w, 'longer', give(w, true), `${longest}a`);
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data).toMatchObject({ name: 'ValidationError', errors: [{ property: 'locale' }] });
  });

  it('PATCH /users/me/consents reads ?locale= the same way', async () => {
    const w = await world();
    await registered(w, 'patcher', give(w, true));
    const patched = await patchOwn(w, 'patcher', [{ type: { id: w.news.id }, checked: true }], 'fr_CA');
    expect(patched.status).toBe(200);
    const [news] = await dataOf<Json[]>(patched);
    expect([news!.locale, news!.requestedLocale, news!.description]).toEqual(['fr-CA', 'fr_CA', NEWS_TEXT['fr-CA']]);
    const unusable = await patchOwn(w, 'patcher', [{ type: { id: w.news.id }, checked: false }], '');
    expect(unusable.status).toBe(200);
    expect((await dataOf<Json[]>(unusable))[0]).toMatchObject({ locale: 'en', requestedLocale: null, checked: false });
    expect((await patchOwn(w, 'patcher', give(w, true), 'x'.repeat(65))).status).toBe(400);
  });
});
