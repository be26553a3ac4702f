import type { EventType } from './event-type.entity.js';

/** An event type as every reader sees it: never the secret or its hash (docs/events.md#event-types). */
export function eventTypeView(type: EventType) {
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

export type EventTypeView = ReturnType<typeof eventTypeView>;
