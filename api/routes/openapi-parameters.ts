import type { TObject, TSchema } from 'typebox';

/**
 * The OpenAPI parameter objects of a path or query schema: one per property, its description
 * lifted to the parameter, `required` for path parameters and required query fields.
 */
export function openApiParameters(schema: TObject, where: 'path' | 'query'): object[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(schema.properties as Record<string, TSchema & { description?: string }>).map(
    ([name, property]) => {
      const { description, ...rest } = property;
      return {
        name,
        in: where,
        ...(where === 'path' || required.has(name) ? { required: true } : {}),
        ...(description !== undefined ? { description } : {}),
        schema: rest,
      };
    },
  );
}
