/**
 * Copies onto an entity the fields a service names as writable, from a change a client sent, and
 * nothing else: no request body is ever assigned to an entity wholesale, so an id, the tenant or a
 * timestamp stays the server's even if a schema lets a field through by mistake (issue 17). A
 * field absent from the change is left as it is; `null` is written where the field allows it.
 */
export function copyWritableFields<E extends object, const K extends keyof E>(
  entity: E,
  change: { readonly [F in K]?: E[F] },
  writable: readonly K[],
): void {
  for (const field of writable) {
    const value = change[field];
    if (value !== undefined) entity[field] = value as E[K];
  }
}
