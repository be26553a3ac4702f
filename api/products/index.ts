import type { AppContext } from '../../shared/context.js';
import { Product } from '../../shared/products/product.entity.js';
import {
  createProduct,
  deleteProduct,
  findProduct,
  productView,
  updateProduct,
} from '../../shared/products/product-service.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import {
  access,
  CreateProductBody,
  PRODUCT_EXAMPLE,
  PRODUCT_LIST,
  ProductIdParams,
  ProductResource,
  tags,
  UpdateProductBody,
} from './schema.js';

/** `/v1/products` (docs/receipts.md#products): the catalogue receipts and BASKET rules read. */
export function registerProductRoutes(app: App, context: AppContext): void {
  const products = collectionRoutes(app, context, {
    path: '/v1/products',
    noun: 'product',
    entity: Product,
    resource: ProductResource,
    view: productView,
    example: PRODUCT_EXAMPLE,
    params: ProductIdParams,
    tags,
    access,
  });
  products.create({
    summary: 'Add a product to the catalogue',
    description:
      'A product maps line items to a `productId` by its `identifiers` (SKUs, barcodes, description aliases, matched without regard to case) and feeds BASKET rules.',
    body: CreateProductBody,
    request: {
      name: 'Espresso beans 1 kg',
      identifiers: ['SKU-1001', '4006381333931'],
      unitPrice: 18.9,
      isActive: true,
    },
    errors: [409, 422],
    create: createProduct,
  });
  products.list({ description: "The tenant's products.", spec: PRODUCT_LIST });
  products.get({ find: findProduct });
  products.update({
    summary: 'Change a product; identifiers, when given, replace its identifiers',
    description:
      "Changes the fields given; the others keep their values. `identifiers`, when given, replace the product's identifiers.",
    body: UpdateProductBody,
    examples: { request: { unitPrice: 17.5 }, response: { ...PRODUCT_EXAMPLE, unitPrice: 17.5 } },
    errors: [404, 409],
    update: updateProduct,
  });
  products.delete({
    description: 'Deletes a product for good; to stop matching it for a while, set `isActive: false` instead.',
    remove: deleteProduct,
  });
}
