import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Product } from '../../shared/products/product.entity.js';
import { productView } from '../../shared/products/product-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, PRODUCT_EXAMPLE, PRODUCT_LIST, ProductResource, tags } from './schema.js';

export function registerListProducts(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/products',
    operationId: 'listProducts',
    description:
      "The tenant's products. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: { response: [PRODUCT_EXAMPLE] },
    summary: 'List products',
    tags,
    access,
    query: listQuery(PRODUCT_LIST),
    responses: { 200: { description: 'a page of products', data: Type.Array(ProductResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Product, PRODUCT_LIST, query, productView),
  });
}
