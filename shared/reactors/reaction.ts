import { Type, type Static } from 'typebox';
import { PointsExpressionSchema, type PointsExpression } from '../kernel/points-expression.js';

/**
 * The most one reaction grants. More comes only from a reactor or a payload gone wrong (a total in
 * pennies read as pounds, times a thousand); stored, it could also outgrow what the ledger and a
 * JavaScript number hold exactly, and fail the event's registration for good.
 */
export const MAX_REACTION_POINTS = 1_000_000_000;

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
