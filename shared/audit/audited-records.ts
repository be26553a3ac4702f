import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import type { EntityManager } from '../platform/db/orm.js';
import { findTenantRecord } from '../platform/db/tenant-record.js';
import type { AuditDependencies } from './audit-log.js';
import { auditedResourceChange, type AuditedResource, type ChangedBy } from './audited-resource-change.js';

/** One kind of the tenant's records, as `auditedRecords` finds and changes them. */
interface RecordKind<E extends object, Deps> {
  /** `product`, `rule_set`, …: the audit entries' resourceType and the first word of their actions. */
  resourceType: string;
  entity: EntityName<E>;
  /** How a 404 names it (`No rule set "…"`): by default the resourceType, in words. */
  noun?: string;
  /** The record as the audit log shows it before and after: its public view. */
  view: (record: E) => Record<string, unknown>;
  /** The process's cache of this kind of record, which a change makes stale. */
  cache?: (deps: Deps) => TenantCache;
  /** Refuses (409), in the deleting transaction, a record that must not go. */
  checkRemoval?: (tx: EntityManager, record: E) => Promise<void>;
}

/**
 * One kind of the tenant's records, found by id (404 when the tenant has none) and created,
 * changed and deleted each in a transaction with its audit entry (`auditedResourceChange`), the
 * entry showing the record's view before and after. A service declares its kind once and writes
 * only what its own change does.
 */
export function auditedRecords<E extends object, Deps extends AuditDependencies = AuditDependencies>(
  kind: RecordKind<E, Deps>,
) {
  const noun = kind.noun ?? kind.resourceType.replaceAll('_', ' ');
  const resource = (deps: Deps): AuditedResource => ({ resourceType: kind.resourceType, cache: kind.cache?.(deps) });
  const find = (em: EntityManager, tenantId: string, id: string): Promise<E> =>
    findTenantRecord(em, kind.entity, tenantId, id, noun);
  return {
    /** What `auditedResourceChange` needs, for a change of this kind the calls below do not make. */
    resource,
    find,

    /**
     * Creates the record `build` makes in the transaction, given what every new record of the
     * kind starts with: the id it was given, and the tenant making the change.
     */
    create: (
      deps: Deps,
      em: EntityManager,
      by: ChangedBy,
      id: string,
      build: (tx: EntityManager, owned: { id: string; tenant: string }) => Promise<E>,
    ) =>
      auditedResourceChange(deps, em, by, resource(deps), async (tx) => {
        const record = await build(tx, { id, tenant: by.tenantId });
        await tx.flush();
        return { result: record, resourceId: id, before: null, after: kind.view(record) };
      }),

    /** Changes the record by id: `change` checks and applies the change in the transaction. */
    update: (
      deps: Deps,
      em: EntityManager,
      by: ChangedBy,
      id: string,
      change: (tx: EntityManager, record: E) => Promise<void> | void,
    ) =>
      auditedResourceChange(deps, em, by, resource(deps), async (tx) => {
        const record = await find(tx, by.tenantId, id);
        const before = kind.view(record);
        await change(tx, record);
        await tx.flush();
        return { result: record, resourceId: id, before, after: kind.view(record) };
      }),

    /** Deletes the record by id, unless the kind's `checkRemoval` refuses. */
    remove: async (deps: Deps, em: EntityManager, by: ChangedBy, id: string): Promise<void> => {
      await auditedResourceChange(deps, em, by, resource(deps), async (tx) => {
        const record = await find(tx, by.tenantId, id);
        await kind.checkRemoval?.(tx, record);
        await tx.nativeDelete(kind.entity, { tenant: by.tenantId, id } as FilterQuery<E>);
        return { result: undefined, resourceId: id, before: kind.view(record), after: null };
      });
    },
  };
}
