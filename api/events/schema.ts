import { Type } from 'typebox';
import { PointsReaction, WebhookReaction } from '../../shared/reactors/reaction.js';
import { EventTypeName, EventTypeResource } from '../event-types/schema.js';
import { UserResource } from '../users/schema.js';

/** rewards-interface.md, POST /events body. */
export const ReportEventBody = Type.Object(
  {
    type: EventTypeName,
    payload: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    subject: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 512 }), Type.Integer({ minimum: 1 })])),
    occurredAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

export const EventResource = Type.Object({
  id: Type.Integer(),
  type: EventTypeResource,
  subject: Type.Union([UserResource, Type.Object({ id: Type.String({ description: 'the tenant\'s service subject' }) })]),
  reportedAt: Type.String({ format: 'date-time' }),
  registeredAt: Type.Optional(Type.String({ format: 'date-time' })),
  reactedAt: Type.Optional(Type.String({ format: 'date-time' })),
  occurredAt: Type.Optional(Type.String({ format: 'date-time' })),
  payload: Type.Record(Type.String(), Type.Unknown()),
});

/** A reaction as a reactor holds it, with the reactor's name. */
export const ReactionResource = Type.Union([
  Type.Object({ ...PointsReaction.properties, reactorName: Type.String() }),
  Type.Object({ ...WebhookReaction.properties, reactorName: Type.String() }),
]);

export const ReactionResult = Type.Object({
  totalPoints: Type.Integer(),
  reactions: Type.Array(ReactionResource),
  pending: Type.Optional(Type.Boolean()),
});

export const TestReactionResult = Type.Object({
  totalPoints: Type.Integer(),
  reactions: Type.Array(ReactionResource),
  activatedReactors: Type.Array(Type.Object({ name: Type.String(), id: Type.String() })),
});

export const EventIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
