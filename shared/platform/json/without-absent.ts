/** A record without its null and undefined members: docs/events.md#system-event-types, "absent values are omitted, never invented". */
export function withoutAbsent(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== undefined));
}
