import { TtlCache } from '../platform/cache/ttl-cache.js';
import type { Orm } from '../platform/db/orm.js';
import { identifierKey, Product } from './product.entity.js';

/** A line item as the parser or the caller gives it; `productId` is what the catalogue adds. */
export interface CatalogueLineItem {
  identifier?: unknown;
  description?: unknown;
  productId?: unknown;
}

/** One tenant's active products, as receipts and rule runs read them. */
export class TenantCatalogue {
  constructor(
    private readonly byKey: ReadonlyMap<string, string>,
    /** The rule engine's `catalogue` fact: `{[productId]: {unitPrice}}`. */
    readonly prices: Readonly<Record<string, { unitPrice: number | null }>>,
  ) {}

  /** docs/receipts.md#products: a line item's identifier (SKU, barcode), else its description, names the product. */
  productIdOf(item: CatalogueLineItem): string | undefined {
    for (const text of [item.identifier, item.description]) {
      const productId = typeof text === 'string' ? this.byKey.get(identifierKey(text)) : undefined;
      if (productId) return productId;
    }
    return undefined;
  }

  /** Line items with `productId` set where the catalogue knows them; one given already stays. */
  mapLineItems<Item extends CatalogueLineItem>(items: readonly Item[]): Item[] {
    return items.map((item) => {
      // A dry run's transaction is free-form: what is not a line item passes through untouched.
      if (!item || typeof item !== 'object' || item.productId !== undefined) return item;
      const productId = this.productIdOf(item);
      return productId ? { ...item, productId } : item;
    });
  }
}

/** Catalogues cached per tenant for `ttlMs`; a change made through this process is seen at once (`forget`). */
export class ProductCatalogues {
  private readonly cache: TtlCache<TenantCatalogue>;

  constructor(
    private readonly orm: Orm,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs, 10_000);
  }

  forTenant(tenantId: string): Promise<TenantCatalogue> {
    return this.cache.getOrLoad(tenantId, () => this.load(tenantId));
  }

  private async load(tenantId: string): Promise<TenantCatalogue> {
    const products = await this.orm.em
      .fork()
      .find(Product, { tenant: tenantId, isActive: true }, { fields: ['id', 'identifiers', 'unitPrice'] });
    const byKey = new Map<string, string>();
    const prices: Record<string, { unitPrice: number | null }> = {};
    for (const product of products) {
      prices[product.id] = { unitPrice: product.unitPrice ?? null };
      for (const identifier of product.identifiers) byKey.set(identifierKey(identifier), product.id);
    }
    return new TenantCatalogue(byKey, prices);
  }

  forget(tenantId: string): void {
    this.cache.delete(tenantId);
  }
}
