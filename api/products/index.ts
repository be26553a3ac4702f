import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { Product } from '../../shared/products/product.entity.js';
import { createProduct, deleteProduct, findProduct, productView, updateProduct } from '../../shared/products/product-service.js';
import { entityManager, type App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecordOf, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';

const Identifier = Type.String({ minLength: 1, maxLength: 200 });

const CreateProductBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    identifiers: Type.Array(Identifier, { minItems: 1, maxItems: 100, description: 'SKUs, barcodes and description aliases that name this product on a line item (matched without regard to case)' }),
    unitPrice: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1e9 }), Type.Null()], { description: 'the catalogue price BASKET rules may check' })),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const UpdateProductBody = changesSchema(CreateProductBody);

const ProductResource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  identifiers: Type.Array(Type.String()),
  unitPrice: Type.Union([Type.Number(), Type.Null()]),
  isActive: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const ProductIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

const PRODUCT_LIST: ListSpec = {
  resource: 'product',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    unitPrice: { type: 'number', filterable: true, sortable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

/** Products map parsed line items to a productId and feed BASKET rules, so the rule authors (`admin:rules`) keep them. */
const access = { admin: 'admin:rules' } as const;
const tags = ['Products'];

/** `/v1/products` (decisions.md §9): the catalogue receipts and BASKET rules read. */
export function registerProductRoutes(app: App, context: AppContext): void {
  app.post(
    '/v1/products',
    describe({ summary: 'Add a product to the catalogue', tags, access, body: CreateProductBody, responses: { 201: { description: 'created', data: ProductResource } }, errors: [409, 422] }),
    authorize(context, access),
    idempotent(context, createsRecordOf(Product, productView)),
    jsonBody(CreateProductBody),
    async (c) => {
      const product = await createProduct(entityManager(c), context.products, c.var.tenant.id, c.req.valid('json'), c.var.reservedId);
      return c.json({ status: 'success', data: productView(product) }, 201);
    },
  );
  app.get(
    '/v1/products',
    describe({ summary: 'List products', tags, access, parameters: listParameters(PRODUCT_LIST), responses: { 200: { description: 'a page of products', data: Type.Array(ProductResource) } }, errors: [400] }),
    authorize(context, access),
    (c) => listResponse(c, Product, PRODUCT_LIST, productView),
  );
  app.get(
    '/v1/products/:id',
    describe({ summary: 'Read a product', tags, access, parameters: [ProductIdParameter], responses: { 200: { description: 'the product', data: ProductResource } }, errors: [404] }),
    authorize(context, access),
    async (c) => c.json({ status: 'success', data: productView(await findProduct(entityManager(c), c.var.tenant.id, c.req.param('id'))) }),
  );
  app.patch(
    '/v1/products/:id',
    describe({ summary: 'Change a product; identifiers, when given, replace its identifiers', tags, access, parameters: [ProductIdParameter], body: UpdateProductBody, responses: { 200: { description: 'the changed product', data: ProductResource } }, errors: [404, 409] }),
    authorize(context, access),
    jsonBody(UpdateProductBody),
    async (c) => {
      const product = await updateProduct(entityManager(c), context.products, c.var.tenant.id, c.req.param('id'), c.req.valid('json'));
      return c.json({ status: 'success', data: productView(product) });
    },
  );
  app.delete(
    '/v1/products/:id',
    describe({ summary: 'Delete a product', tags, access, parameters: [ProductIdParameter], responses: { 200: { description: 'deleted', data: Type.Object({ affected: Type.Integer() }) } }, errors: [404] }),
    authorize(context, access),
    async (c) => {
      await deleteProduct(entityManager(c), context.products, c.var.tenant.id, c.req.param('id'));
      return c.json({ status: 'success', data: { affected: 1 } });
    },
  );
}
