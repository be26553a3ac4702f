import { Type, type Static, type TSchema } from 'typebox';

/*
 * The grammar of points expressions: a reactor's POINTS reaction is one (reactors/reaction.ts), and
 * an event keeps the one each reaction was worked out by (events/stored-reaction.ts).
 */

/** docs/events.md#points-arithmetic: `{type: 'NUMBER', value: '10'}`, `{type: 'PATH', value: '$.payload.total'}`, or a nested expression. */
export const PointsOperation = Type.Union([
  Type.Literal('SUM'),
  Type.Literal('MULTIPLY'),
  Type.Literal('MIN'),
  Type.Literal('MAX'),
]);

export interface PointsExpression {
  operation: Static<typeof PointsOperation>;
  arguments: PointsArgument[];
}

export type PointsArgument =
  { type: 'NUMBER'; value: string } | { type: 'PATH'; value: string } | { type: 'EXPRESSION'; value: PointsExpression };

const MAX_ARGUMENTS = 50;

/** The schema of an expression, nested to a fixed depth so a body cannot recurse without end. */
function expressionSchema(depth: number): TSchema {
  const leaves = [
    Type.Object(
      { type: Type.Literal('NUMBER'), value: Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', maxLength: 30 }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { type: Type.Literal('PATH'), value: Type.String({ pattern: '^\\$', minLength: 2, maxLength: 256 }) },
      { additionalProperties: false },
    ),
  ];
  const argument =
    depth > 0
      ? Type.Union([
          ...leaves,
          Type.Object(
            { type: Type.Literal('EXPRESSION'), value: expressionSchema(depth - 1) },
            { additionalProperties: false },
          ),
        ])
      : Type.Union(leaves);
  return Type.Object(
    { operation: PointsOperation, arguments: Type.Array(argument, { minItems: 1, maxItems: MAX_ARGUMENTS }) },
    { additionalProperties: false },
  );
}

/** Typed by hand: TypeBox cannot infer a type through the depth-limited recursion above. */
export const PointsExpressionSchema = Type.Unsafe<PointsExpression>(expressionSchema(4));
