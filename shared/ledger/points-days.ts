import type { Knex } from 'knex';
import { periodOf, type Day } from './calendar.js';
import type { PointsCap } from './points-policy.js';

/**
 * The daily sums beside the ledger (points-day.entity.ts), written in the transaction of the
 * entries they sum: what caps and tiers read instead of the member's whole history.
 */

export interface DayChange {
  tenantId: string;
  userId: string;
  day: Day;
  /** Points earned that day: negative when a reversal takes an earning back. */
  earned?: number;
  /** Points spent that day: negative when a refund gives a spend back. */
  spent?: number;
}

/** Adds each change to its member's day, in one statement; rows are taken in one order, so concurrent writers wait rather than deadlock. */
export async function recordDays(trx: Knex.Transaction, changes: DayChange[]): Promise<void> {
  const summed = new Map<string, { tenant_id: string; user_id: string; day: Day; earned: number; spent: number }>();
  for (const change of changes) {
    const key = `${change.userId} ${change.day}`;
    const row = summed.get(key) ?? {
      tenant_id: change.tenantId,
      user_id: change.userId,
      day: change.day,
      earned: 0,
      spent: 0,
    };
    row.earned += change.earned ?? 0;
    row.spent += change.spent ?? 0;
    summed.set(key, row);
  }
  const rows = [...summed.values()].filter((row) => row.earned !== 0 || row.spent !== 0);
  if (rows.length === 0) return;
  await trx.raw(
    `insert into points_day (user_id, day, tenant_id, earned, spent)
     select user_id, day, tenant_id, earned, spent
       from jsonb_to_recordset(?::jsonb) as r(user_id uuid, day date, tenant_id uuid, earned bigint, spent bigint)
      order by user_id, day
     on conflict (user_id, day) do update
       set earned = points_day.earned + excluded.earned, spent = points_day.spent + excluded.spent`,
    [JSON.stringify(rows)],
  );
}

export type DayColumn = 'earned' | 'spent';

/** Each member's sum of `column` over its days from `first` to `last`, inclusive; members with none are absent. */
export async function sumDays(
  knex: Knex | Knex.Transaction,
  column: DayColumn,
  ranges: { userId: string; first: Day; last: Day }[],
): Promise<Map<string, number>> {
  if (ranges.length === 0) return new Map();
  const rows = await knex.raw<{ rows: { user_id: string; total: string }[] }>(
    `select r.user_id, sum(d.${column}) as total
       from jsonb_to_recordset(?::jsonb) as r(user_id uuid, first date, last date)
       join points_day d on d.user_id = r.user_id and d.day between r.first and r.last
      group by r.user_id`,
    [JSON.stringify(ranges.map((range) => ({ user_id: range.userId, first: range.first, last: range.last })))],
  );
  return new Map(rows.rows.map((row) => [row.user_id, Number(row.total)]));
}

/** What is left of a cap in the period holding `today`, for each member: the cap less what its days used. */
export async function capLeft(
  knex: Knex | Knex.Transaction,
  column: DayColumn,
  cap: PointsCap,
  today: Day,
  userIds: string[],
): Promise<Map<string, number>> {
  const { first, last } = periodOf(today, cap.period);
  const used = await sumDays(
    knex,
    column,
    [...new Set(userIds)].map((userId) => ({ userId, first, last })),
  );
  return new Map([...new Set(userIds)].map((userId) => [userId, Math.max(0, cap.max - (used.get(userId) ?? 0))]));
}
