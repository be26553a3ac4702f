import type { AppContext } from '../../shared/context.js';
import { Product } from '../../shared/products/product.entity.js';
import { createProduct, productView } from '../../shared/products/product-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { access, CreateProductBody, ProductResource, tags } from './schema.js';

export function registerCreateProduct(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/products',
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
