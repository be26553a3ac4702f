import { EventTypeName, EventTypeResource, PayloadSchema } from '../../shared/event-types/event-type-view.js';
import { Type } from 'typebox';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';

export const CreateEventTypeBody = Type.Object(
  {
    name: EventTypeName,
    description: Type.String({ minLength: 1, maxLength: 2000 }),
    isPrivate: Type.Boolean(),
    schema: Type.Optional(PayloadSchema),
    omitFromUserActivity: Type.Optional(Type.Boolean()),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'CreateEventTypeBody' },
);

/** `name` and `isPrivate` cannot change (docs/events.md#event-types): sending them is a 400. */
export const UpdateEventTypeBody = Type.Object(
  {
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    schema: Type.Optional(Type.Union([PayloadSchema, Type.Null()])),
    omitFromUserActivity: Type.Optional(Type.Boolean()),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'UpdateEventTypeBody' },
);

export const CreatedEventType = Type.Intersect(
  [
    EventTypeResource,
    Type.Object({
      secret: Type.Optional(Type.String({ description: "A private type's secret: shown in this answer only" })),
    }),
  ],
  { title: 'CreatedEventType' },
);

export const RotatedSecret = Type.Object({ secret: Type.String() }, { title: 'EventTypeSecret' });

export const EVENT_TYPE_LIST: ListSpec = {
  resource: 'event_type',
  defaultSort: 'createdAt',
  fields: {
    name: { type: 'string', filterable: true, sortable: true },
    isPrivate: { type: 'boolean', filterable: true },
    isActive: { type: 'boolean', filterable: true },
    omitFromUserActivity: { type: 'boolean', filterable: true },
    ...TIMESTAMP_FIELDS,
  },
};

export const tags = ['Event types'];

/** An event type as the examples show it, alone and in the events of its name. */
export const EVENT_TYPE_EXAMPLE = {
  id: '6f1c0d2e-8a3b-4c5d-9e7f-0a1b2c3d4e5f',
  name: 'PURCHASE',
  description: 'A purchase in a shop',
  isPrivate: true,
  omitFromUserActivity: false,
  isActive: true,
  createdAt: '2026-01-05T09:00:00.000Z',
  updatedAt: '2026-01-05T09:00:00.000Z',
};

export const IdentifierParams = Type.Object({
  identifier: Type.Union([Type.String({ format: 'uuid' }), EventTypeName], {
    description: "The event type's uuid or its name",
    examples: [EVENT_TYPE_EXAMPLE.name],
  }),
});
