import { Type, type TObject, type TSchemaOptions } from 'typebox';

/**
 * The body of a PATCH: every field of the creating body optional, and the body still closed.
 * TypeBox's own `Type.Partial` drops `additionalProperties: false`, which once left every update
 * body open to `tenant`, `id` and `createdAt` (issue 17); the linter refuses it anywhere but here.
 */
export function changesSchema<T extends TObject>(schema: T, options: TSchemaOptions = {}) {
  // eslint-disable-next-line no-restricted-syntax -- the one place Type.Partial is called, closed again at once
  return Type.Partial(schema, { ...options, additionalProperties: false });
}
