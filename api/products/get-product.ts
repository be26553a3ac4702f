import type { AppContext } from '../../shared/context.js';
import { findProduct, productView } from '../../shared/products/product-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, PRODUCT_EXAMPLE, ProductIdParams, ProductResource, tags } from './schema.js';

export function registerGetProduct(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/products/:id',
    operationId: 'getProduct',
    description: 'One product by its id.',
    examples: { response: PRODUCT_EXAMPLE },
    summary: 'Read a product',
    tags,
    access,
    params: ProductIdParams,
    responses: { 200: { description: 'the product', data: ProductResource } },
    errors: [404],
    handler: async ({ params }, c) => productView(await findProduct(entityManager(c), c.var.tenant.id, params.id)),
  });
}
