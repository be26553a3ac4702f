import type { AppContext } from '../../shared/context.js';
import { productView, updateProduct } from '../../shared/products/product-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ProductIdParams, ProductResource, tags, UpdateProductBody } from './schema.js';

export function registerUpdateProduct(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/products/:id',
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
