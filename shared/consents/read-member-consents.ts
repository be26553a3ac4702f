import type { EntityManager } from '../platform/db/orm.js';

/** One answer a member gave to a consent type, as the API shows it (docs/consents.md#a-members-consents). */
export interface ConsentView {
  type: { id: string; name: string };
  version: number;
  locale: string;
  requestedLocale: string | null;
  description: string | null;
  checked: boolean;
  givenAt: string;
}

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

/** How many earlier answers per type `history` shows: each may copy a 10,000-character text. */
export const HISTORY_LIMIT = 100;

/**
 * One member's current consents, each with `history`: its HISTORY_LIMIT latest earlier answers,
 * newest first, and `historyCount`, how many earlier answers there are in all.
 */
export async function consentsWithHistory(
  em: EntityManager,
  tenantId: string,
  memberId: string,
): Promise<(ConsentView & { history: ConsentView[]; historyCount: number })[]> {
  const rows = await em.execute<(ConsentRow & { answers: number })[]>(
    `select * from (
       select ${COLUMNS}, mc.id,
              row_number() over (partition by mc.consent_type_id order by mc.id desc) as position,
              count(*) over (partition by mc.consent_type_id)::int as answers
         from member_consent mc join consent_type ct on ct.id = mc.consent_type_id and ct.tenant_id = mc.tenant_id
        where mc.tenant_id = ? and mc.member_id = ?
     ) answered
      where position <= ?
      order by name, consent_type_id, id desc`,
    [tenantId, memberId, HISTORY_LIMIT + 1],
  );
  const byType = new Map<string, (ConsentRow & { answers: number })[]>();
  for (const row of rows) byType.set(row.consent_type_id, [...(byType.get(row.consent_type_id) ?? []), row]);
  return [...byType.values()].map(([latest, ...earlier]) => ({
    ...consentView(latest!),
    history: earlier.map(consentView),
    historyCount: latest!.answers - 1,
  }));
}

/**
 * The member view's `consents` (shared/users/member-views.ts): each member's current consents. A
 * member who never answered any has none to show, and its view is the plain member's.
 */
export async function memberConsentDetails(
  em: EntityManager,
  tenantId: string,
  memberIds: string[],
): Promise<Map<string, Record<string, unknown>>> {
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
