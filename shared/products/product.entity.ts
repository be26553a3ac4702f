import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantOwned } from '../tenants/tenant-owned.js';
import { timestampProperties } from '../platform/db/timestamp-properties.js';

/**
 * A product of the tenant's catalogue (docs/receipts.md#products): its `identifiers` (SKUs,
 * barcodes, description aliases) map parsed line items to its id, and BASKET rules name it.
 */
export const Product = defineEntity({
  name: 'Product',
  tableName: 'product',
  indexes: [{ properties: ['tenant', 'createdAt'] }],
  properties: {
    ...tenantOwned(),
    name: p.string().length(256),
    identifiers: p.json<string[]>(),
    /** The catalogue price BASKET rules check a line item's unit price against. */
    unitPrice: p.decimal('number').precision(14).scale(4).nullable(),
    isActive: p.boolean().default(true),
    ...timestampProperties(),
  },
});

export type Product = InferEntity<typeof Product>;

/**
 * One row per identifier, so PostgreSQL itself keeps an identifier to one product per tenant: a
 * line item must map to a single product. `key` is the identifier as matched (identifierKey).
 */
export const ProductIdentifier = defineEntity({
  name: 'ProductIdentifier',
  tableName: 'product_identifier',
  uniques: [{ properties: ['tenant', 'key'] }],
  indexes: [{ properties: ['product'] }],
  properties: {
    ...tenantOwned(),
    product: p.manyToOne(Product).deleteRule('cascade'),
    key: p.string(),
  },
});

export type ProductIdentifier = InferEntity<typeof ProductIdentifier>;

/** Identifiers match without regard to case or runs of spaces: OCR and tills differ in both. */
export function identifierKey(identifier: string): string {
  return identifier.trim().replace(/\s+/g, ' ').toLowerCase();
}
