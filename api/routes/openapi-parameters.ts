import type { TObject, TSchema } from 'typebox';

/**
 * The OpenAPI parameter objects of a path or query schema: one per property, its description
 * and first example lifted to the parameter, `required` for path parameters and required query fields.
 */
export function openApiParameters(schema: TObject, where: 'path' | 'query'): object[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(schema.properties as Record<string, TSchema & { description?: string }>).map(
    ([name, property]) => {
      const { description, examples, ...rest } = property as typeof property & { examples?: unknown[] };
      return {
        name,
        in: where,
        ...(where === 'path' || required.has(name) ? { required: true } : {}),
        ...(description !== undefined ? { description } : {}),
        schema: rest,
        ...(examples?.length ? { example: examples[0] } : {}),
      };
    },
  );
}
