import { eventTypeView } from '../event-types/event-type-view.js';
import type { EventType } from '../event-types/event-type.entity.js';
import type { User } from '../users/user.entity.js';
import { userView } from '../users/user-view.js';
import type { Event } from './event.entity.js';

export interface EventParts {
  id: number;
  type: EventType;
  /** Null for the tenant's service subject. */
  user: User | null;
  payload: Record<string, unknown>;
  reportedAt: Date;
  occurredAt: Date | null;
  registeredAt?: Date | null;
  reactedAt?: Date | null;
}

/**
 * An event as rewards-interface.md shows it. The service subject (business proceedings with no
 * customer, decisions.md §5) is shown as `{id: <base url>}`, the form in which it was reported.
 */
export function eventView(event: EventParts, serviceSubject: string) {
  return {
    id: event.id,
    type: eventTypeView(event.type),
    subject: event.user ? userView(event.user) : { id: serviceSubject },
    reportedAt: event.reportedAt.toISOString(),
    ...(event.registeredAt ? { registeredAt: event.registeredAt.toISOString() } : {}),
    ...(event.reactedAt ? { reactedAt: event.reactedAt.toISOString() } : {}),
    ...(event.occurredAt ? { occurredAt: event.occurredAt.toISOString() } : {}),
    payload: event.payload,
  };
}

/** A stored event, its type and member loaded. */
export function storedEventView(event: Event, serviceSubject: string) {
  return eventView({ ...event, type: event.type as EventType, user: (event.user as User | null) ?? null, occurredAt: event.occurredAt ?? null }, serviceSubject);
}
