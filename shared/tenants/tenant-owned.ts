import { p } from '@mikro-orm/core';
import { Tenant } from './tenant.entity.js';

/**
 * The properties a tenant's record starts with: its uuid, and its tenant, whose deletion deletes
 * the record with it.
 */
export function tenantOwned() {
  return {
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
  };
}
