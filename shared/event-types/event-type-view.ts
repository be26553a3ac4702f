import { Type, type Static } from 'typebox';
import { TIMESTAMPS } from '../platform/validation/timestamps.js';
import type { EventType } from './event-type.entity.js';

/** docs/events.md#event-types: names are upper-case words joined by underscores. */
export const EventTypeName = Type.String({ pattern: '^[A-Z]+(_[A-Z]+)*$', maxLength: 128 });
export const PayloadSchema = Type.Record(Type.String(), Type.Unknown(), {
  description: 'A JSON Schema (draft-07 or 2020-12) for the payload',
});

/** An event type as every reader sees it: never the secret or its hash (docs/events.md#event-types). */
export const EventTypeResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: EventTypeName,
    description: Type.String(),
    isPrivate: Type.Boolean(),
    schema: Type.Optional(PayloadSchema),
    omitFromUserActivity: Type.Boolean(),
    isActive: Type.Boolean(),
    ...TIMESTAMPS,
  },
  { title: 'EventType' },
);

/** The view of a stored type: its schema, when it has one. */
export function eventTypeView(type: EventType): EventTypeView {
  return {
    id: type.id,
    name: type.name,
    description: type.description,
    isPrivate: type.isPrivate,
    ...(type.schema ? { schema: type.schema } : {}),
    omitFromUserActivity: type.omitFromUserActivity,
    isActive: type.isActive,
    createdAt: type.createdAt.toISOString(),
    updatedAt: type.updatedAt.toISOString(),
  };
}

export type EventTypeView = Static<typeof EventTypeResource>;
