/**
 * A process's cache of one kind of a tenant's records (products, venues, reactors, webhooks, rule
 * sets). The service that changes such a record drops the tenant's entries once the change is
 * made, so a change made over HTTP, from the CLI or by a worker is seen alike.
 */
export interface TenantCache {
  forget(tenantId: string): void;
}
