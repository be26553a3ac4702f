import type { AppContext } from '../../shared/context.js';
import { findProduct, productView } from '../../shared/products/product-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ProductIdParams, ProductResource, tags } from './schema.js';

export function registerGetProduct(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/products/:id',
    operationId: 'getProduct',
    description: 'One product by its id.',
    examples: {
      response: {
        id: '5d6e7f80-9a1b-4c2d-8e3f-405162738495',
        name: 'Espresso beans 1 kg',
        identifiers: ['SKU-1001', '4006381333931'],
        unitPrice: 18.9,
        isActive: true,
        createdAt: '2026-01-09T08:00:00.000Z',
        updatedAt: '2026-01-09T08:00:00.000Z',
      },
    },
    summary: 'Read a product',
    tags,
    access,
    params: ProductIdParams,
    responses: { 200: { description: 'the product', data: ProductResource } },
    errors: [404],
    handler: async ({ params }, c) => productView(await findProduct(entityManager(c), c.var.tenant.id, params.id)),
  });
}
