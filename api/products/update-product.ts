import type { AppContext } from '../../shared/context.js';
import { productView, updateProduct } from '../../shared/products/product-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ProductIdParams, ProductResource, tags, UpdateProductBody } from './schema.js';

export function registerUpdateProduct(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/products/:id',
    operationId: 'updateProduct',
    description:
      "Changes the fields given; the others keep their values. `identifiers`, when given, replace the product's identifiers.",
    examples: {
      request: { unitPrice: 17.5 },
      response: {
        id: '5d6e7f80-9a1b-4c2d-8e3f-405162738495',
        name: 'Espresso beans 1 kg',
        identifiers: ['SKU-1001', '4006381333931'],
        unitPrice: 17.5,
        isActive: true,
        createdAt: '2026-01-09T08:00:00.000Z',
        updatedAt: '2026-01-09T08:00:00.000Z',
      },
    },
    summary: 'Change a product; identifiers, when given, replace its identifiers',
    tags,
    access,
    params: ProductIdParams,
    body: UpdateProductBody,
    responses: { 200: { description: 'the changed product', data: ProductResource } },
    errors: [404, 409],
    handler: async ({ params, body }, c) =>
      productView(await updateProduct(context, entityManager(c), changedBy(c), params.id, body)),
  });
}
