import type { AppContext } from '../../shared/context.js';
import { Product } from '../../shared/products/product.entity.js';
import { createProduct, productView } from '../../shared/products/product-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { access, CreateProductBody, PRODUCT_EXAMPLE, ProductResource, tags } from './schema.js';

export function registerCreateProduct(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/products',
    operationId: 'createProduct',
    description:
      'A product maps line items to a `productId` by its `identifiers` (SKUs, barcodes, description aliases, matched without regard to case) and feeds BASKET rules.',
    examples: {
      request: {
        name: 'Espresso beans 1 kg',
        identifiers: ['SKU-1001', '4006381333931'],
        unitPrice: 18.9,
        isActive: true,
      },
      response: PRODUCT_EXAMPLE,
    },
    summary: 'Add a product to the catalogue',
    tags,
    access,
    idempotency: createsRecordOf(Product, productView),
    body: CreateProductBody,
    responses: { 201: { description: 'created', data: ProductResource } },
    errors: [409, 422],
    handler: async ({ body }, c) =>
      productView(await createProduct(context, entityManager(c), changedBy(c), body, c.var.reservedId)),
  });
}
