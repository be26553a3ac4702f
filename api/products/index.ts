import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerCreateProduct } from './create-product.js';
import { registerDeleteProduct } from './delete-product.js';
import { registerGetProduct } from './get-product.js';
import { registerListProducts } from './list-products.js';
import { registerUpdateProduct } from './update-product.js';

/** `/v1/products` (docs/receipts.md#products): the catalogue receipts and BASKET rules read. */
export function registerProductRoutes(app: App, context: AppContext): void {
  registerCreateProduct(app, context);
  registerListProducts(app, context);
  registerGetProduct(app, context);
  registerUpdateProduct(app, context);
  registerDeleteProduct(app, context);
}
