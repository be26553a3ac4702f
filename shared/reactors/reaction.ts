import { Type, type Static, type TSchema } from 'typebox';

/**
 * The most one reaction grants. More comes only from a reactor or a payload gone wrong (a total in
 * pennies read as pounds, times a thousand); stored, it could also outgrow what the ledger and a
 * JavaScript number hold exactly, and fail the event's registration for good.
 */
export const MAX_REACTION_POINTS = 1_000_000_000;

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

export const PointsReaction = Type.Object(
  { type: Type.Literal('POINTS'), points: PointsExpressionSchema },
  {
    additionalProperties: false,
    description: `whole points, rounded down; a reaction worth more than ${MAX_REACTION_POINTS.toLocaleString('en')} points is worth nothing`,
  },
);

/**
 * A WEBHOOK reaction (docs/events.md#reactions) is asynchronous. When its reactor's conditions
 * hold, the event is delivered to that webhook of the tenant, signed and retried like every
 * delivery (docs/events.md#webhooks), whether or not the webhook lists the event's type: the
 * reactor chose it. It runs for the tenant's service subject too, which earns no points (react.ts,
 * forServiceSubject).
 */
export const WebhookReaction = Type.Object(
  {
    type: Type.Literal('WEBHOOK'),
    webhookId: Type.String({ format: 'uuid', description: 'a webhook of the tenant (POST /v1/webhooks)' }),
  },
  { additionalProperties: false },
);

/**
 * A VOUCHER reaction (docs/events.md#reactions) gives the member a voucher of a VOUCHER reward of
 * the tenant, free, in the transaction that registers the event: at most one per (event, reactor),
 * so a reactor holds at most one. The service subject has no wallet and is given none.
 */
export const VoucherReaction = Type.Object(
  {
    type: Type.Literal('VOUCHER'),
    rewardId: Type.String({ format: 'uuid', description: 'a VOUCHER reward of the tenant (POST /v1/rewards)' }),
  },
  { additionalProperties: false },
);

export const ReactionSchema = Type.Union([PointsReaction, WebhookReaction, VoucherReaction]);

export type Reaction =
  { type: 'POINTS'; points: PointsExpression } | Static<typeof WebhookReaction> | Static<typeof VoucherReaction>;
