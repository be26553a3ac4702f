import type { Knex } from 'knex';
import { RECEIPT_REVIEWED } from '../kernel/system-event-names.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { ListQuery } from '../platform/lists/parse-list-query.js';
import { LedgerEntry, type LedgerKind } from './ledger-entry.entity.js';
import type { PointsCause, PointsHistoryItem } from './points-history-resource.js';

/**
 * The points history (docs/points.md#history): a member's ledger entries, each naming its cause in
 * one readable object, so a member (or support) sees which event and reactor, which receipt, which
 * purchase, which expiry or which admin moved the balance, and why.
 */

export interface PointsHistoryPage {
  items: PointsHistoryItem[];
  total: number;
}

/**
 * One page of the member's history, within the tenant: the page itself as every list takes it
 * (the list helper's filter, sort and paging over `ledger_entry`, served by its (tenant, user,
 * createdAt) index), then the causes of the page's entries in one joined query over their ids.
 */
export async function readPointsHistory(
  em: EntityManager,
  tenantId: string,
  userId: string,
  query: ListQuery,
): Promise<PointsHistoryPage> {
  const where = { $and: [{ tenant: tenantId, user: userId }, query.where] };
  const [entries, total] = await em.findAndCount(LedgerEntry, where as never, {
    limit: query.limit,
    offset: query.offset,
    orderBy: query.orderBy as never,
    fields: ['id'],
  });
  const items = await historyItems(
    em.getKnex(),
    tenantId,
    entries.map((entry) => entry.id),
  );
  return { items, total };
}

interface HistoryRow {
  id: string;
  kind: LedgerKind;
  points: string;
  created_at: Date;
  expires_at: Date | null;
  requested_points: string | null;
  reverses_entry_id: string | null;
  expires_entry_id: string | null;
  reason: string | null;
  actor: string | null;
  job_id: string | null;
  event_id: string | null;
  event_type: string | null;
  reactor_id: string | null;
  reactor_name: string | null;
  receipt_id: string | null;
  review_id: string | null;
  purchase_id: string | null;
  reward_id: string | null;
  reward_name: string | null;
}

/**
 * The tenant's entries of these ids as the history shows them, in the order of `ids`; an id the
 * tenant has no entry of is left out. Each join is by primary key or an indexed column, with the
 * tenant in each: a cause is named only from the entry's own tenant.
 */
export async function historyItems(knex: Knex, tenantId: string, ids: string[]): Promise<PointsHistoryItem[]> {
  if (ids.length === 0) return [];
  const rows = await knex.raw<{ rows: HistoryRow[] }>(
    `select le.id, le.kind, le.points, le.created_at, le.expires_at, le.requested_points, le.reverses_entry_id,
            le.expires_entry_id, le.reason, le.actor, le.job_id, le.event_id, et.name as event_type,
            le.reactor_id, r.name as reactor_name, review.receipt_id, review.id as review_id,
            le.purchase_id, p.reward_id, rw.name as reward_name
       from ledger_entry le
       left join event e on e.id = le.event_id and e.tenant_id = le.tenant_id
       left join event_type et on et.id = e.type_id and et.tenant_id = le.tenant_id
       left join reactor r on r.id = le.reactor_id and r.tenant_id = le.tenant_id
       left join lateral (
         select rr.id, rr.receipt_id from receipt_review rr
          where rr.event_id = le.event_id and rr.tenant_id = le.tenant_id and et.name = ? and et.is_system
          order by rr.created_at limit 1
       ) review on true
       left join purchase p on p.id = le.purchase_id and p.tenant_id = le.tenant_id
       left join reward rw on rw.id = p.reward_id and rw.tenant_id = le.tenant_id
      where le.tenant_id = ? and le.id = any(?::uuid[])`,
    [RECEIPT_REVIEWED, tenantId, ids],
  );
  const byId = new Map(rows.rows.map((row) => [row.id, historyItem(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

function historyItem(row: HistoryRow): PointsHistoryItem {
  return {
    id: row.id,
    kind: row.kind,
    points: Number(row.points),
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    cause: causeOf(row),
    ...(row.requested_points === null ? {} : { requestedPoints: Number(row.requested_points) }),
    ...(row.reverses_entry_id === null ? {} : { reversesEntryId: row.reverses_entry_id }),
  };
}

/** The one object naming why the entry exists, chosen by what the entry points at. */
function causeOf(row: HistoryRow): PointsCause {
  if (row.kind === 'ADJUSTMENT')
    return { type: 'ADJUSTMENT', reason: row.reason, actor: row.actor, ...(row.job_id ? { jobId: row.job_id } : {}) };
  if (row.kind === 'EXPIRY') return { type: 'EXPIRY', expiredEntryId: row.expires_entry_id };
  if (row.purchase_id !== null)
    return { type: 'PURCHASE', purchaseId: row.purchase_id, rewardId: row.reward_id, rewardName: row.reward_name };
  const event = {
    eventId: Number(row.event_id),
    eventType: row.event_type,
    reactorId: row.reactor_id,
    reactorName: row.reactor_name,
  };
  if (row.receipt_id !== null && row.review_id !== null)
    return { type: 'RECEIPT', receiptId: row.receipt_id, reviewId: row.review_id, ...event };
  return { type: 'EVENT', ...event };
}
