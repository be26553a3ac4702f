import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { ConflictError } from '../platform/errors/app-errors.js';
import { identifierKey, Product, ProductIdentifier } from './product.entity.js';
import { findTenantRecord } from '../platform/db/tenant-record.js';

export interface ProductInput {
  name: string;
  identifiers: string[];
  unitPrice?: number | null;
  isActive?: boolean;
}

export function productView(product: Product) {
  return {
    id: product.id,
    name: product.name,
    identifiers: product.identifiers,
    unitPrice: product.unitPrice ?? null,
    isActive: product.isActive,
    createdAt: product.createdAt.toISOString(),
    updatedAt: product.updatedAt.toISOString(),
  };
}

export async function createProduct(
  em: EntityManager,
  catalogue: TenantCache,
  tenantId: string,
  input: ProductInput,
  id: string = randomUUID(),
): Promise<Product> {
  const created = await em.transactional(async (tx) => {
    const product = tx.create(Product, {
      id,
      tenant: tenantId,
      name: input.name,
      identifiers: input.identifiers,
      unitPrice: input.unitPrice ?? null,
      isActive: input.isActive ?? true,
    });
    await claimIdentifiers(tx, tenantId, product, input.identifiers);
    return product;
  });
  catalogue.forget(tenantId);
  return created;
}

export async function findProduct(em: EntityManager, tenantId: string, id: string): Promise<Product> {
  return findTenantRecord(em, Product, tenantId, id, 'product');
}

export async function updateProduct(
  em: EntityManager,
  catalogue: TenantCache,
  tenantId: string,
  id: string,
  changes: Partial<ProductInput>,
): Promise<Product> {
  const changed = await em.transactional(async (tx) => {
    const product = await findProduct(tx, tenantId, id);
    copyWritableFields(product, changes, ['name', 'identifiers', 'unitPrice', 'isActive']);
    if (changes.identifiers) {
      await tx.nativeDelete(ProductIdentifier, { tenant: tenantId, product: product.id });
      await claimIdentifiers(tx, tenantId, product, changes.identifiers);
    }
    return product;
  });
  catalogue.forget(tenantId);
  return changed;
}

export async function deleteProduct(
  em: EntityManager,
  catalogue: TenantCache,
  tenantId: string,
  id: string,
): Promise<void> {
  const product = await findProduct(em, tenantId, id);
  await em.nativeDelete(Product, { tenant: tenantId, id: product.id });
  catalogue.forget(tenantId);
}

/**
 * An identifier names one product of the tenant: one already taken is 409 naming the product that
 * holds it. The unique index decides between two requests racing for the same identifier.
 */
async function claimIdentifiers(
  em: EntityManager,
  tenantId: string,
  product: Product,
  identifiers: string[],
): Promise<void> {
  const keys = [...new Set(identifiers.map(identifierKey))];
  const taken = await em.find(ProductIdentifier, {
    tenant: tenantId,
    key: { $in: keys },
    product: { $ne: product.id },
  });
  if (taken.length) {
    const holders = taken.map((row) => `"${row.key}" (product ${row.product.id})`).join(', ');
    throw new ConflictError(`Identifiers already name another product: ${holders}`, {
      data: { explanation: 'An identifier maps a line item to one product: remove it from the other product first' },
    });
  }
  for (const key of keys) em.create(ProductIdentifier, { id: randomUUID(), tenant: tenantId, product, key });
  await em.flush();
}
