import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '../platform/db/orm.js';
import { NotFoundError } from '../platform/errors/app-errors.js';
import { Tenant } from './tenant.entity.js';
import { tenantView, type TenantView } from './tenant-view.js';

/**
 * Finding tenants, apart from changing them (tenant-admin/tenant-service.ts): the CLI's read-only commands load
 * this alone, without the settings' schemas and their validator (docs/operations.md#cli).
 */

/** Which tenant: by id (the API, from the API key) or by slug (the CLI). */
export type TenantSelector = { id: string } | { slug: string };

export async function listTenants(em: EntityManager): Promise<TenantView[]> {
  const tenants = await em.find(Tenant, {}, { orderBy: { createdAt: 'ASC' } });
  return tenants.map(tenantView);
}

export async function findTenantBySlug(em: EntityManager, slug: string): Promise<Tenant> {
  return findTenant(em, { slug });
}

export async function findTenant(em: EntityManager, selector: TenantSelector, lock = false): Promise<Tenant> {
  const tenant = await em.findOne(Tenant, selector, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!tenant) {
    throw new NotFoundError('slug' in selector ? `No tenant has the slug "${selector.slug}"` : 'No such tenant');
  }
  return tenant;
}
