import { randomUUID } from 'node:crypto';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedRecords } from '../audit/audited-records.js';
import type { ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { storedAmount } from '../platform/db/stored-amount.js';
import { ConflictError } from '../platform/errors/app-errors.js';
import { identifierKey, Product, ProductIdentifier } from './product.entity.js';

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

/** Product changes: the audit log, and the catalogue cache a change makes stale. */
export interface ProductChangeDependencies extends AuditDependencies {
  products: TenantCache;
}

const products = auditedRecords({
  resourceType: 'product',
  entity: Product,
  view: productView,
  cache: (deps: ProductChangeDependencies) => deps.products,
});

export async function createProduct(
  deps: ProductChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: ProductInput,
  id: string = randomUUID(),
): Promise<Product> {
  return products.create(deps, em, by, id, async (tx, owned) => {
    const product = tx.create(Product, {
      ...owned,
      name: input.name,
      identifiers: input.identifiers,
      unitPrice: input.unitPrice == null ? null : storedAmount(input.unitPrice),
      isActive: input.isActive ?? true,
    });
    await claimIdentifiers(tx, by.tenantId, product, input.identifiers);
    return product;
  });
}

export const findProduct = products.find;

export async function updateProduct(
  deps: ProductChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: Partial<ProductInput>,
): Promise<Product> {
  return products.update(deps, em, by, id, async (tx, product) => {
    copyWritableFields(product, changes, ['name', 'identifiers', 'isActive']);
    if (changes.unitPrice !== undefined)
      product.unitPrice = changes.unitPrice === null ? null : storedAmount(changes.unitPrice);
    if (changes.identifiers) {
      await tx.nativeDelete(ProductIdentifier, { tenant: by.tenantId, product: product.id });
      await claimIdentifiers(tx, by.tenantId, product, changes.identifiers);
    }
  });
}

export const deleteProduct = products.remove;

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
