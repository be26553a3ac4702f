import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Product } from '../../shared/products/product.entity.js';
import { productView } from '../../shared/products/product-service.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { access, PRODUCT_LIST, ProductResource, tags } from './schema.js';

export function registerListProducts(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/products',
    operationId: 'listProducts',
    description:
      "The tenant's products. A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: {
      response: [
        {
          id: '5d6e7f80-9a1b-4c2d-8e3f-405162738495',
          name: 'Espresso beans 1 kg',
          identifiers: ['SKU-1001', '4006381333931'],
          unitPrice: 18.9,
          isActive: true,
          createdAt: '2026-01-09T08:00:00.000Z',
          updatedAt: '2026-01-09T08:00:00.000Z',
        },
      ],
    },
    summary: 'List products',
    tags,
    access,
    query: listQuery(PRODUCT_LIST),
    responses: { 200: { description: 'a page of products', data: Type.Array(ProductResource) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Product, PRODUCT_LIST, query, productView),
  });
}
