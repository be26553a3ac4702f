import { Type, type TSchemaOptions } from 'typebox';

/**
 * A union of literals typed as the literals themselves (`'AUTHORIZE' | …`): TypeBox infers a
 * union mapped from an array as `never`, which would let a handler answer anything there.
 */
export const literalUnion = <const Values extends readonly string[]>(values: Values, options?: TSchemaOptions) =>
  Type.Unsafe<Values[number]>(
    Type.Union(
      values.map((value) => Type.Literal(value)),
      options,
    ),
  );

/**
 * A string of an enum, written `{type: 'string', enum: [...]}` (a union of one kind would be an
 * anyOf of one, which Redocly warns of), typed as the values themselves rather than `string`.
 */
export const stringEnum = <const Values extends readonly string[]>(values: Values, options?: TSchemaOptions) =>
  Type.Unsafe<Values[number]>(Type.String({ enum: [...values], ...options }));
