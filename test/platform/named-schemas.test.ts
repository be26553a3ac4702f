import { describe, expect, it } from 'vitest';
import type { Json } from '../support/harness.js';
import { liftNamedSchemas } from '../../api/openapi/named-schemas.js';

const money = { type: 'object', title: 'Money', properties: { amount: { type: 'number' } } };

// Issue 19: "everything inline except the error envelope, so generated clients get anonymous types".
describe('named schemas of the OpenAPI document', () => {
  it('move into components.schemas at any depth, leaving a $ref where each was', () => {
    const document: Json = liftNamedSchemas({
      paths: {
        '/orders': {
          get: {
            responses: {
              200: {
                content: {
                  'application/json': {
                    schema: { type: 'object', title: 'Order', properties: { total: money } },
                    example: { title: 'an example keeps its title' },
                  },
                },
              },
            },
          },
        },
      },
      components: {},
    });
    const media = document.paths['/orders'].get.responses[200].content['application/json'];
    expect(media.schema).toEqual({ $ref: '#/components/schemas/Order' });
    expect(media.example).toEqual({ title: 'an example keeps its title' });
    expect(document.components.schemas).toEqual({
      Money: money,
      Order: { type: 'object', title: 'Order', properties: { total: { $ref: '#/components/schemas/Money' } } },
    });
  });

  it('refuse two different schemas under one name', () => {
    const other = { ...money, properties: { cents: { type: 'integer' } } };
    expect(() =>
      liftNamedSchemas({ paths: { '/a': { get: { schema: money } }, '/b': { get: { schema: other } } } }),
    ).toThrow('two different schemas are named Money');
  });
});
