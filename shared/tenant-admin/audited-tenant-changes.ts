import { auditedChange, type AuditDependencies } from '../audit/audit-log.js';
import type { Actor } from '../audit/audit-job.js';
import type { Config } from '../platform/config/config.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import type { TenantDirectory } from '../tenants/tenant-directory.js';
import {
  createTenant,
  rotateApiKey,
  setTenantDisabled,
  updateTenant,
  type TenantChange,
  type NewTenant,
  type TenantChanges,
} from './tenant-service.js';
import type { TenantSelector } from '../tenants/tenant-lookup.js';
import type { TenantView } from '../tenants/tenant-view.js';

export interface TenantChangeDependencies extends AuditDependencies {
  payloadSchemas: PayloadSchemaCompiler;
  /** FETCH_ALLOW_PRIVATE_ADDRESSES lets a partner's address be plain http (docs/tenant.md#configuration). */
  config: Pick<Config, 'fetchAllowPrivateAddresses'>;
  /** This process's API key → tenant cache, which a change makes stale (docs/tenant.md#when-a-change-applies). */
  tenants?: Pick<TenantDirectory, 'forget'>;
}

/**
 * A change of a tenant, from `PATCH /v1/tenant` or the CLI alike: the change and its audit entry in
 * one transaction (audit-log.ts), the before and after being public views (no shared key, no API
 * key), then this process's cached tenant dropped so its next request sees the change.
 */
async function audited<T extends TenantChange>(
  deps: TenantChangeDependencies,
  em: EntityManager,
  actor: Actor,
  action: string,
  change: (em: EntityManager) => Promise<T>,
  describe: (done: T) => { before: Record<string, unknown> | null; after: Record<string, unknown> | null } = (done) =>
    done,
): Promise<T> {
  const done = await auditedChange(deps, em, change, (changed) => ({
    tenantId: changed.after.id,
    actor,
    action,
    resourceType: 'tenant',
    resourceId: changed.after.id,
    ...describe(changed),
  }));
  deps.tenants?.forget(done.before.keyPrefix);
  return done;
}

export async function changeTenant(
  deps: TenantChangeDependencies,
  em: EntityManager,
  actor: Actor,
  selector: TenantSelector,
  changes: TenantChanges,
): Promise<TenantView> {
  const { after } = await audited(deps, em, actor, 'tenant.updated', (tx) =>
    updateTenant(tx, deps.payloadSchemas, selector, changes, deps.config.fetchAllowPrivateAddresses),
  );
  return after;
}

/** A new tenant, audited as `tenant.created` with its public view; its API key is in the answer alone. */
export async function createTenantAudited(
  deps: TenantChangeDependencies,
  em: EntityManager,
  actor: Actor,
  input: NewTenant,
): Promise<TenantView & { key: string }> {
  return auditedChange(
    deps,
    em,
    (tx) => createTenant(tx, deps.payloadSchemas, input, deps.config.fetchAllowPrivateAddresses),
    ({ key: _key, ...created }) => ({
      tenantId: created.id,
      actor,
      action: 'tenant.created',
      resourceType: 'tenant',
      resourceId: created.id,
      before: null,
      after: { ...created },
    }),
  );
}

/** docs/tenant.md#disabling. */
export async function changeTenantDisabled(
  deps: TenantChangeDependencies,
  em: EntityManager,
  actor: Actor,
  selector: TenantSelector,
  disabled: boolean,
): Promise<TenantView> {
  const { after } = await audited(deps, em, actor, disabled ? 'tenant.disabled' : 'tenant.enabled', (tx) =>
    setTenantDisabled(tx, selector, disabled, new Date(deps.clock.now())),
  );
  return after;
}

/** A new API key, audited by its prefix only; the key itself is in the answer alone. */
export async function rotateApiKeyAudited(
  deps: TenantChangeDependencies,
  em: EntityManager,
  actor: Actor,
  slug: string,
): Promise<TenantView & { key: string }> {
  const { after, key } = await audited(
    deps,
    em,
    actor,
    'tenant.api_key_rotated',
    (tx) => rotateApiKey(tx, slug),
    (rotated) => ({ before: { keyPrefix: rotated.before.keyPrefix }, after: { keyPrefix: rotated.after.keyPrefix } }),
  );
  return { ...after, key };
}
