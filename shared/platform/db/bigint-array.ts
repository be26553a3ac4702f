/**
 * Ids as one PostgreSQL array literal, for `= any(?::bigint[])`: one bound parameter however many
 * ids, where knex's `whereIn` binds one per id, a cost that showed in the event worker's profile.
 * Only for integers, which need no quoting.
 */
export function bigintArray(ids: readonly number[]): string {
  return `{${ids.map((id) => Math.trunc(id)).join(',')}}`;
}
