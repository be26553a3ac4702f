import type { AppContext } from '../../shared/context.js';
import { productView, updateProduct } from '../../shared/products/product-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, PRODUCT_EXAMPLE, ProductIdParams, ProductResource, tags, UpdateProductBody } from './schema.js';

export function registerUpdateProduct(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/products/:id',
    operationId: 'updateProduct',
    description:
      "Changes the fields given; the others keep their values. `identifiers`, when given, replace the product's identifiers.",
    examples: { request: { unitPrice: 17.5 }, response: { ...PRODUCT_EXAMPLE, unitPrice: 17.5 } },
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
