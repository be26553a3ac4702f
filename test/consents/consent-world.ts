import { queryOne, dataOf, type Harness, type Json, type TestTenant } from '../support/harness.js';

export const TERMS_TEXT = {
  en: 'I accept the terms.',
  fr: "J'accepte les conditions.",
  'pt-BR': 'Eu aceito os termos.',
};
export const NEWS_TEXT = { en: 'Send me news.', 'fr-CA': 'Envoyez-moi des nouvelles.' };

export interface World {
  tenant: TestTenant;
  admin: string;
  terms: Json;
  news: Json;
}

const profile = (name: string) => ({ familyName: 'Doe', givenName: name, emailAddress: `${name}@example.com` });

/**
 * What the consents tests do with members, over the test file's harness (given as a function: it
 * is created in beforeAll, after the file has called this).
 */
export function consentWorld(harnessOf: () => Harness) {
  /** A tenant of its own (its required type binds every registration there), with a required and an optional type. */
  async function world(): Promise<World> {
    const harness = harnessOf();
    const tenant = await harness.createTenant();
    const admin = await harness.adminToken(tenant, ['admin:users']);
    const create = async (body: Json) =>
      dataOf(await harness.request(tenant, 'POST', '/v1/consent_types', { token: admin, body }));
    const terms = await create({ name: 'Terms', required: true, defaultLocale: 'en', descriptions: TERMS_TEXT });
    const news = await create({ name: 'Newsletter', required: false, defaultLocale: 'en', descriptions: NEWS_TEXT });
    return { tenant, admin, terms, news };
  }

  /** POST /v1/users as the tenant's admin; `locale` goes into the query string as given (`''` sends `?locale=`). */
  function register(w: World, authIdentifier: string, consentsDefinition: Json, locale?: string, headers = {}) {
    const query = locale === undefined ? '' : `?locale=${encodeURIComponent(locale)}`;
    return harnessOf().request(w.tenant, 'POST', `/v1/users${query}`, {
      token: w.admin,
      headers,
      body: {
        isRestricted: false,
        authIdentifier,
        profile: profile(authIdentifier),
        ...(consentsDefinition === undefined ? {} : { consentsDefinition }),
      },
    });
  }

  async function registered(w: World, authIdentifier: string, consentsDefinition: Json, locale?: string) {
    const response = await register(w, authIdentifier, consentsDefinition, locale);
    if (response.status !== 201) throw new Error(`register answered ${response.status}: ${await response.text()}`);
    return dataOf<Json>(response);
  }

  const give = (w: World, checkedTerms = true, checkedNews?: boolean) => [
    { type: { id: w.terms.id }, checked: checkedTerms },
    ...(checkedNews === undefined ? [] : [{ type: { id: w.news.id }, checked: checkedNews }]),
  ];

  async function membersCount(w: World): Promise<number> {
    return (await queryOne(harnessOf(), 'select count(*)::int as n from member where tenant_id = ?', [w.tenant.id])).n;
  }

  async function consentRows(w: World, memberId: string): Promise<Json[]> {
    return harnessOf()
      .context.orm.em.fork()
      .getConnection()
      .execute(
        `select consent_type_id, version, locale, requested_locale, description, checked, given_at
           from member_consent where tenant_id = ? and member_id = ? order by id`,
        [w.tenant.id, memberId],
      );
  }

  /** GET /v1/users/me/consents in name order (the list's default is newest first), as the tests read them. */
  async function ownConsents(w: World, authIdentifier: string): Promise<Json[]> {
    const token = await harnessOf().userToken(w.tenant, authIdentifier);
    return dataOf(
      await harnessOf().request(w.tenant, 'GET', '/v1/users/me/consents?sort=type.name&order=ASC', { token }),
    );
  }

  /** PATCH /v1/users/me/consents with the member's own token; `locale` as in register. */
  async function patchOwn(w: World, authIdentifier: string, body: Json, locale?: string) {
    const token = await harnessOf().userToken(w.tenant, authIdentifier);
    const query = locale === undefined ? '' : `?locale=${encodeURIComponent(locale)}`;
    return harnessOf().request(w.tenant, 'PATCH', `/v1/users/me/consents${query}`, { token, body });
  }

  return { world, register, registered, give, membersCount, consentRows, ownConsents, patchOwn, profile };
}
