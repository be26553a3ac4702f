import { Type, type Static } from 'typebox';
import { stringEnum } from '../platform/validation/literal-union.js';
import { LEDGER_KINDS } from './ledger-entry.entity.js';

// A member's ledger entry as the points history answers it (docs/points.md#history), each with
// the cause that explains it; points-history.ts reads them.

const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

const EventFields = {
  eventId: Type.Integer({ description: 'the event that caused the entry' }),
  // Null only if the event is gone.
  eventType: Nullable(Type.String(), "the event's type name"),
  reactorId: Nullable(
    Type.String({ format: 'uuid' }),
    'the reactor whose rule granted the points; null for a REVERSAL, which no reactor made',
  ),
  // A deleted reactor's id stays, its name does not.
  reactorName: Nullable(Type.String(), "the reactor's name; null when the reactor has been deleted since"),
};

const EventCause = Type.Object(
  { type: Type.Literal('EVENT'), ...EventFields },
  { title: 'PointsEventCause', description: 'Points a reactor granted for an event, or took back after a later one' },
);
const ReceiptCause = Type.Object(
  {
    type: Type.Literal('RECEIPT'),
    receiptId: Uuid('the receipt'),
    reviewId: Uuid("the receipt's review whose decision was reported as a RECEIPT_REVIEWED event"),
    // Named as an EVENT cause names them: a reactor's rule is what turned the review into points.
    ...EventFields,
  },
  {
    title: 'PointsReceiptCause',
    description:
      "Points for a receipt: granted by a reactor on the RECEIPT_REVIEWED event of the receipt's review (the event and reactor are named too), or taken back when a later review rejected it",
  },
);
const PurchaseCause = Type.Object(
  {
    type: Type.Literal('PURCHASE'),
    purchaseId: Uuid('the purchase'),
    rewardId: Nullable(Type.String({ format: 'uuid' }), 'the reward bought'),
    rewardName: Nullable(Type.String(), "the reward's name"),
  },
  {
    title: 'PointsPurchaseCause',
    description: 'Points spent on a purchase (SPEND), or given back when it was never delivered (REVERSAL)',
  },
);
const ExpiryCause = Type.Object(
  {
    type: Type.Literal('EXPIRY'),
    expiredEntryId: Nullable(Type.String({ format: 'uuid' }), 'the EARN entry whose unspent points expired'),
  },
  { title: 'PointsExpiryCause', description: 'Points that reached their expiry unspent' },
);
const AdjustmentCause = Type.Object(
  {
    type: Type.Literal('ADJUSTMENT'),
    reason: Nullable(Type.String(), 'the reason the admin gave'),
    actor: Nullable(Type.String(), "who adjusted: the admin token's subject"),
    jobId: Type.Optional(Type.String({ format: 'uuid', description: 'the bulk adjustment job the line came in' })),
  },
  { title: 'PointsAdjustmentCause', description: 'An admin added or took away points' },
);

export const PointsHistoryItem = Type.Object(
  {
    id: Uuid('the ledger entry'),
    kind: stringEnum(LEDGER_KINDS, {
      description:
        'EARN (granted by a reactor), SPEND (a purchase), EXPIRY, REVERSAL (an EARN or a SPEND undone) or ADJUSTMENT (by an admin)',
    }),
    points: Type.Integer({ description: 'signed: positive adds to the balance, negative takes from it' }),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: "an EARN's expiry, when the tenant's points expire; null otherwise",
    }),
    cause: Type.Union([EventCause, ReceiptCause, PurchaseCause, ExpiryCause, AdjustmentCause], {
      description: 'why the entry exists, told by `type`: EVENT, RECEIPT, PURCHASE, EXPIRY or ADJUSTMENT',
    }),
    requestedPoints: Type.Optional(
      Type.Integer({
        description: 'an EARN cut by the earn cap: the points its reactor asked for; `points` is what was granted',
      }),
    ),
    reversesEntryId: Type.Optional(Type.String({ format: 'uuid', description: 'a REVERSAL of an EARN: that EARN' })),
  },
  { title: 'PointsHistoryItem' },
);

export type PointsHistoryItem = Static<typeof PointsHistoryItem>;
export type PointsCause = PointsHistoryItem['cause'];
