import { Type, type Static } from 'typebox';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { PointsReaction, VoucherReaction, WebhookReaction } from '../../shared/reactors/reaction.js';
import { EventTypeName, EventTypeResource } from '../../shared/event-types/event-type-view.js';
import { EVENT_TYPE_EXAMPLE } from '../event-types/schema.js';
import { POINTS_REACTION_EXAMPLE, REACTOR_EXAMPLE } from '../reactors/schema.js';
import { USER_EXAMPLE, UserResource } from '../users/schema.js';

/** The body of POST /v1/events (docs/events.md#reporting). */
export const ReportEventBody = Type.Object(
  {
    type: EventTypeName,
    payload: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    subject: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 512 }), Type.Integer({ minimum: 1 })])),
    occurredAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false, title: 'ReportEventBody' },
);

export const EventResource = Type.Object(
  {
    id: Type.Integer(),
    type: EventTypeResource,
    subject: Type.Union([
      UserResource,
      Type.Object({ id: Type.String({ description: "the tenant's service subject" }) }),
    ]),
    reportedAt: Type.String({ format: 'date-time' }),
    registeredAt: Type.Optional(Type.String({ format: 'date-time' })),
    reactedAt: Type.Optional(Type.String({ format: 'date-time' })),
    occurredAt: Type.Optional(Type.String({ format: 'date-time' })),
    payload: Type.Record(Type.String(), Type.Unknown()),
  },
  { title: 'Event' },
);

/** A reaction as a reactor holds it, with the reactor's name; a VOUCHER reaction of a registered event, with what became of it. */
export const ReactionResource = Type.Union(
  [
    Type.Object({
      ...PointsReaction.properties,
      reactorName: Type.String(),
      amount: Type.Integer({
        description: 'the whole points the reaction is worth: for a registered event, the points it granted',
      }),
      requestedAmount: Type.Optional(
        Type.Integer({
          description:
            "present when the tenant's earn cap cut the reaction: the points it computed, of which `amount` was granted",
        }),
      ),
    }),
    Type.Object({ ...WebhookReaction.properties, reactorName: Type.String() }),
    Type.Object({
      ...VoucherReaction.properties,
      reactorName: Type.String(),
      status: Type.Optional(
        Type.Union([Type.Literal('GRANTED'), Type.Literal('FAILED')], {
          description:
            'GRANTED: the member was given the voucher `voucherId`; FAILED: none could be given, `reason` says why (the points and other reactions of the event stand). Absent from a dry run (`POST /v1/events/test_reaction`), which gives nothing.',
        }),
      ),
      voucherId: Type.Optional(Type.String({ format: 'uuid', description: 'the voucher given, when GRANTED' })),
      reason: Type.Optional(
        Type.String({
          description:
            'why no voucher was given, when FAILED: `<error name>: <message>`, e.g. `VoucherCodePoolExhaustedError: …` or `RewardUnavailableError: …`',
        }),
      ),
    }),
  ],
  { title: 'EventReaction' },
);

export const ReactionResult = Type.Object(
  {
    totalPoints: Type.Integer(),
    reactions: Type.Array(ReactionResource),
    pending: Type.Optional(Type.Boolean()),
  },
  { title: 'EventReactions' },
);

export const TestReactionResult = Type.Object(
  {
    totalPoints: Type.Integer(),
    reactions: Type.Array(ReactionResource),
    activatedReactors: Type.Array(Type.Object({ name: Type.String(), id: Type.String() })),
  },
  { title: 'TestReactionResult' },
);

/**
 * An event's id in the path: a bigint, read as a JavaScript number, whose exact integers end below
 * PostgreSQL's bigint; the sequence never comes near either.
 */
export const EventIdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "The event's id", examples: [1042] }),
});

export const EVENT_LIST: ListSpec = {
  resource: 'event',
  defaultSort: 'reportedAt',
  fields: {
    id: { type: 'number', filterable: true, sortable: true },
    reportedAt: { type: 'datetime', filterable: true, sortable: true },
    occurredAt: { type: 'datetime', filterable: true, sortable: true },
    registeredAt: { type: 'datetime', filterable: true, sortable: true },
    reactedAt: { type: 'datetime', filterable: true, sortable: true },
    'type.name': { type: 'string', filterable: true },
    'subject.id': { type: 'uuid', path: 'user.id', filterable: true },
    'subject.authIdentifier': { type: 'string', path: 'user.authIdentifier', filterable: true },
    'subject.accountNumber': { type: 'number', path: 'user.accountNumber', filterable: true },
  },
};

export const tags = ['Events'];

/** An event as the document shows it: in answers, lists and webhook deliveries. */
export const EVENT_EXAMPLE = {
  id: 1042,
  type: EVENT_TYPE_EXAMPLE,
  subject: USER_EXAMPLE,
  reportedAt: '2026-02-01T12:00:00.000Z',
  registeredAt: '2026-02-01T12:00:00.120Z',
  reactedAt: '2026-02-01T12:00:00.130Z',
  occurredAt: '2026-02-01T11:59:30.000Z',
  payload: { total: 42.5, shop: 'Main Street' },
};

/** An event as POST /v1/events answers it: accepted, not registered yet. */
export const ACCEPTED_EVENT_EXAMPLE = (({ registeredAt: _registered, reactedAt: _reacted, ...accepted }) => accepted)(
  EVENT_EXAMPLE,
);

/** The event of the examples as it is reported, or tried without reporting it. */
export const REPORTED_EVENT_EXAMPLE: Static<typeof ReportEventBody> = {
  type: 'PURCHASE',
  payload: { total: 42.5, shop: 'Main Street' },
  subject: 'member-17',
  occurredAt: '2026-02-01T11:59:30.000Z',
};

/** The reactions the examples' event triggers: those of the examples' reactor. */
export const REACTIONS_EXAMPLE = {
  totalPoints: 425,
  reactions: [{ ...POINTS_REACTION_EXAMPLE, reactorName: REACTOR_EXAMPLE.name, amount: 425 }],
};
