import { raw } from '@mikro-orm/core';
import type { EntityManager } from '../platform/db/orm.js';
import type { ListQuery } from '../platform/lists/parse-list-query.js';
import { HISTORY_LIMIT, type ConsentView, type ConsentWithHistory } from './consent-resource.js';
import { MemberConsent } from './member-consent.entity.js';

interface ConsentRow {
  member_id: string;
  consent_type_id: string;
  name: string;
  version: number;
  locale: string;
  requested_locale: string | null;
  description: string | null;
  checked: boolean;
  given_at: Date;
}

const COLUMNS = `mc.member_id, mc.consent_type_id, ct.name, mc.version, mc.locale, mc.requested_locale, mc.description,
  mc.checked, mc.given_at`;

/**
 * Each member's current consents, the latest answer per consent type (the highest id), types in
 * name order. A member who never answered any is absent.
 */
export async function currentConsents(
  em: EntityManager,
  tenantId: string,
  memberIds: string[],
): Promise<Map<string, ConsentView[]>> {
  const rows = await em.execute<ConsentRow[]>(
    `select * from (
       select distinct on (mc.member_id, mc.consent_type_id) ${COLUMNS}
         from member_consent mc join consent_type ct on ct.id = mc.consent_type_id and ct.tenant_id = mc.tenant_id
        where mc.tenant_id = ? and mc.member_id = any(?::uuid[])
        order by mc.member_id, mc.consent_type_id, mc.id desc
     ) current order by name, consent_type_id`,
    // One array literal, one parameter: member ids are uuids, which need no quoting.
    [tenantId, `{${memberIds.join(',')}}`],
  );
  const byMember = new Map<string, ConsentView[]>();
  for (const row of rows) byMember.set(row.member_id, [...(byMember.get(row.member_id) ?? []), consentView(row)]);
  return byMember;
}

/**
 * The member's current answer to each consent type: no later answer of the member's to the same
 * type (the member_consent_current_index finds one), so a member's consents are a list of its
 * MemberConsent rows like any other (docs/api-conventions.md#lists). Made anew for each query:
 * MikroORM uses a raw fragment once.
 */
function currentAnswers() {
  return {
    [raw(
      (alias: string) =>
        `(not exists (select 1 from member_consent later where later.tenant_id = ${alias}.tenant_id
           and later.member_id = ${alias}.member_id and later.consent_type_id = ${alias}.consent_type_id
           and later.id > ${alias}.id))`,
    )]: true,
  };
}

/**
 * One page of a member's consents (docs/consents.md#a-members-consents): the list helper's
 * filter, sort and paging over the member's current answers, then those answers with their
 * history.
 */
export async function memberConsentsPage(
  em: EntityManager,
  tenantId: string,
  memberId: string,
  query: ListQuery,
): Promise<{ items: ConsentWithHistory[]; total: number }> {
  const [current, total] = await em.findAndCount(
    MemberConsent,
    { $and: [{ tenant: tenantId, member: memberId }, currentAnswers(), query.where] } as never,
    { limit: query.limit, offset: query.offset, orderBy: query.orderBy as never, fields: ['id', 'consentType'] },
  );
  const typeIds = current.map((consent) => consent.consentType.id);
  return { items: await consentsWithHistory(em, tenantId, memberId, typeIds), total };
}

/**
 * The member's current consents to these types, in their order, each with `history`: its
 * HISTORY_LIMIT latest earlier answers, newest first, and `historyCount`, how many earlier answers
 * there are in all. A type the member never answered is left out.
 */
export async function consentsWithHistory(
  em: EntityManager,
  tenantId: string,
  memberId: string,
  typeIds: string[],
): Promise<ConsentWithHistory[]> {
  if (typeIds.length === 0) return [];
  const rows = await em.execute<(ConsentRow & { answers: number })[]>(
    `select * from (
       select ${COLUMNS}, mc.id,
              row_number() over (partition by mc.consent_type_id order by mc.id desc) as position,
              count(*) over (partition by mc.consent_type_id)::int as answers
         from member_consent mc join consent_type ct on ct.id = mc.consent_type_id and ct.tenant_id = mc.tenant_id
        where mc.tenant_id = ? and mc.member_id = ? and mc.consent_type_id = any(?::uuid[])
     ) answered
      where position <= ?
      order by consent_type_id, id desc`,
    // One array literal, one parameter: type ids are uuids, which need no quoting.
    [tenantId, memberId, `{${typeIds.join(',')}}`, HISTORY_LIMIT + 1],
  );
  const byType = new Map<string, (ConsentRow & { answers: number })[]>();
  for (const row of rows) byType.set(row.consent_type_id, [...(byType.get(row.consent_type_id) ?? []), row]);
  return typeIds.flatMap((typeId) => {
    const answers = byType.get(typeId.toLowerCase());
    if (!answers) return [];
    const [latest, ...earlier] = answers;
    return [{ ...consentView(latest!), history: earlier.map(consentView), historyCount: latest!.answers - 1 }];
  });
}

export interface MemberConsentDetails {
  consents: ConsentView[];
}

/**
 * The member view's `consents` (shared/members/member-views.ts): each member's current consents. A
 * member who never answered any has none to show, and its view is the plain member's.
 */
export async function memberConsentDetails(
  em: EntityManager,
  tenantId: string,
  memberIds: string[],
): Promise<Map<string, MemberConsentDetails>> {
  const current = await currentConsents(em, tenantId, memberIds);
  return new Map([...current].map(([id, consents]) => [id, { consents }]));
}

function consentView(row: ConsentRow): ConsentView {
  return {
    type: { id: row.consent_type_id, name: row.name },
    version: row.version,
    locale: row.locale,
    requestedLocale: row.requested_locale,
    description: row.description,
    checked: row.checked,
    givenAt: new Date(row.given_at).toISOString(),
  };
}
