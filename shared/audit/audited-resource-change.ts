import type { TenantCache } from '../platform/cache/tenant-cache.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { Actor } from './audit-job.js';
import { auditedChange, type AuditDependencies } from './audit-log.js';

/**
 * Who makes a change, and in which tenant: what an audited service is told by its caller. The
 * actor is `null` when the change is not an admin's (a member changing its own profile), which is
 * not audited.
 */
export interface ChangedBy {
  tenantId: string;
  actor: Actor | null;
}

/**
 * One resource as an admin's change left it: its audit views before and after (`null` where it did
 * not exist), and what the service answers. The views are the public ones, or less: never a secret,
 * nor personal data that an erasure must remove (docs/api-conventions.md#audit-log).
 */
export interface ResourceChange<T> {
  result: T;
  resourceId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The action, when `<resourceType>.created|updated|deleted` (as before and after say) is not it. */
  action?: string;
  /** Nothing changed (a retried create that found its record): no entry. */
  unchanged?: boolean;
}

export interface AuditedResource {
  /** `event_type`, `product`, …: the entry's resourceType and the first word of its action. */
  resourceType: string;
  /** The process's cache of this kind of the tenant's records, forgotten once the change is committed. */
  cache?: TenantCache;
}

/**
 * The one way services make an admin change of one resource: `change` runs in a transaction with
 * its audit entry (`auditedChange`), the entry named `<resourceType>.created` when there was no
 * `before`, `.deleted` when there is no `after`, `.updated` otherwise, unless the change names its
 * action. The tenant's cache of such records is forgotten after the commit, so no read between the
 * two caches the old record again. A change without an actor (not an admin's) is made the same
 * way, without an entry.
 */
export async function auditedResourceChange<T>(
  deps: AuditDependencies,
  em: EntityManager,
  by: ChangedBy,
  resource: AuditedResource,
  change: (tx: EntityManager) => Promise<ResourceChange<T>>,
): Promise<T> {
  const { actor } = by;
  const changed = await auditedChange(deps, em, change, (done) =>
    actor && !done.unchanged
      ? {
          tenantId: by.tenantId,
          actor,
          action: done.action ?? `${resource.resourceType}.${verbOf(done)}`,
          resourceType: resource.resourceType,
          resourceId: done.resourceId,
          before: done.before,
          after: done.after,
        }
      : undefined,
  );
  resource.cache?.forget(by.tenantId);
  return changed.result;
}

function verbOf(change: Pick<ResourceChange<unknown>, 'before' | 'after'>): string {
  if (!change.before) return 'created';
  return change.after ? 'updated' : 'deleted';
}
