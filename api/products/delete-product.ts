import type { AppContext } from '../../shared/context.js';
import { deleteProduct } from '../../shared/products/product-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { Deleted, DELETED_ONE } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { access, ProductIdParams, tags } from './schema.js';

export function registerDeleteProduct(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'delete',
    path: '/v1/products/:id',
    operationId: 'deleteProduct',
    description: 'Deletes a product for good; to stop matching it for a while, set `isActive: false` instead.',
    examples: { response: { affected: 1 } },
    summary: 'Delete a product',
    tags,
    access,
    params: ProductIdParams,
    responses: { 200: { description: 'deleted', data: Deleted } },
    errors: [404],
    handler: async ({ params }, c) => {
      await deleteProduct(context, entityManager(c), changedBy(c), params.id);
      return DELETED_ONE;
    },
  });
}
