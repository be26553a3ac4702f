import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type } from 'typebox';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { changesSchema } from '../../shared/platform/validation/changes-schema.js';
import { uuidPath } from '../routes/request-input.js';

const Identifier = Type.String({ minLength: 1, maxLength: 200 });

export const CreateProductBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 256 }),
    identifiers: Type.Array(Identifier, {
      minItems: 1,
      maxItems: 100,
      description:
        'SKUs, barcodes and description aliases that name this product on a line item (matched without regard to case)',
    }),
    unitPrice: Type.Optional(
      Type.Union([Type.Number({ minimum: 0, maximum: 1e9 }), Type.Null()], {
        description: 'the catalogue price BASKET rules may check',
      }),
    ),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'CreateProductBody' },
);
export const UpdateProductBody = changesSchema(CreateProductBody, { title: 'UpdateProductBody' });

export const ProductResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    identifiers: Type.Array(Type.String()),
    unitPrice: Type.Union([Type.Number(), Type.Null()]),
    isActive: Type.Boolean(),
    ...TIMESTAMPS,
  },
  { title: 'Product' },
);

export const PRODUCT_LIST: ListSpec = {
  resource: 'product',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    isActive: { type: 'boolean', filterable: true },
    unitPrice: { type: 'number', filterable: true, sortable: true },
    ...TIMESTAMP_FIELDS,
  },
};

/** Products map parsed line items to a productId and feed BASKET rules, so the rule authors (`admin:rules`) keep them. */
export const access = { admin: 'admin:rules' } as const;
export const tags = ['Products'];

/** A product as the examples show it: added, read, listed and changed. */
export const PRODUCT_EXAMPLE = {
  id: '5d6e7f80-9a1b-4c2d-8e3f-405162738495',
  name: 'Espresso beans 1 kg',
  identifiers: ['SKU-1001', '4006381333931'],
  unitPrice: 18.9,
  isActive: true,
  createdAt: '2026-01-09T08:00:00.000Z',
  updatedAt: '2026-01-09T08:00:00.000Z',
};

export const ProductIdParams = uuidPath({ id: { description: "The product's id", example: PRODUCT_EXAMPLE.id } });
