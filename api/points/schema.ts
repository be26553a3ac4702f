import { Type } from 'typebox';
export { BulkAdjustmentBody } from '../../shared/jobs/adjustment-lines.js';
import { LEDGER_KINDS } from '../../shared/ledger/ledger-entry.entity.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { EVENT_EXAMPLE } from '../events/schema.js';
import { PURCHASE_EXAMPLE } from '../purchases/schema.js';
import { REACTOR_EXAMPLE } from '../reactors/schema.js';
import { REWARD_EXAMPLE } from '../rewards/schema.js';

export const tags = ['Points'];

const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

const EventFields = {
  eventId: Type.Integer({ description: 'the event that caused the entry' }),
  eventType: Nullable(Type.String(), "the event's type name"),
  reactorId: Nullable(
    Type.String({ format: 'uuid' }),
    'the reactor whose rule granted the points; null for a REVERSAL, which no reactor made',
  ),
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
    kind: Type.String({
      enum: [...LEDGER_KINDS],
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

export const POINTS_HISTORY_LIST: ListSpec = {
  resource: 'points-history',
  defaultSort: 'createdAt',
  fields: {
    kind: { type: 'string', filterable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
  },
};

export const POINTS_HISTORY_PAGE =
  'A page of the list: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` (`points-history a-b/n`) says where the page sits in the whole.';

/** The body of POST /v1/users/{id}/points-adjustments (docs/points.md#adjustments). */
export const CreatePointsAdjustmentBody = Type.Object(
  {
    points: Type.Integer({
      minimum: -1_000_000_000,
      maximum: 1_000_000_000,
      description: 'the points to add (positive) or take away (negative); never 0',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'why: shown in the member’s points history and the audit log',
    }),
  },
  { additionalProperties: false, title: 'CreatePointsAdjustmentBody' },
);

export const ADJUSTMENT_EXAMPLE = {
  id: '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f',
  kind: 'ADJUSTMENT' as const,
  points: 50,
  createdAt: '2026-02-14T10:30:00.000Z',
  expiresAt: null,
  cause: { type: 'ADJUSTMENT' as const, reason: 'Goodwill after a late delivery', actor: 'support@example.com' },
};

export const POINTS_HISTORY_EXAMPLE = [
  ADJUSTMENT_EXAMPLE,
  {
    id: 'd2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f6a',
    kind: 'SPEND' as const,
    points: -PURCHASE_EXAMPLE.points,
    createdAt: '2026-02-12T09:00:00.000Z',
    expiresAt: null,
    cause: {
      type: 'PURCHASE' as const,
      purchaseId: PURCHASE_EXAMPLE.id,
      rewardId: REWARD_EXAMPLE.id,
      rewardName: REWARD_EXAMPLE.name,
    },
  },
  // The examples' event, as its reactor granted it (an EARN cut by an earn cap also shows `requestedPoints`).
  {
    id: 'e3f4a5b6-c7d8-4e9f-8a1b-2c3d4e5f6a7b',
    kind: 'EARN' as const,
    points: 425,
    createdAt: '2026-02-01T12:00:00.120Z',
    expiresAt: '2027-02-01T12:00:00.120Z',
    cause: {
      type: 'EVENT' as const,
      eventId: EVENT_EXAMPLE.id,
      eventType: EVENT_EXAMPLE.type.name,
      reactorId: REACTOR_EXAMPLE.id,
      reactorName: REACTOR_EXAMPLE.name,
    },
  },
];

export const BulkAdjustmentAccepted = Type.Object(
  {
    jobId: Type.String({
      format: 'uuid',
      description: 'The job applying the lines: follow it with GET /v1/jobs/{id}.',
    }),
  },
  { title: 'BulkAdjustmentAccepted' },
);

export const bulkAccess = { admin: 'admin:users' } as const;
