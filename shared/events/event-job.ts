import type { Queue } from 'bullmq';
import { Type, type Static } from 'typebox';

/** An accepted event, waiting to be registered. */
export const EventJob = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  tenantId: Type.String({ format: 'uuid' }),
  eventTypeId: Type.String({ format: 'uuid' }),
  eventTypeName: Type.String(),
  /** Null for the tenant's service subject. */
  userId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  payload: Type.Record(Type.String(), Type.Unknown()),
  reportedAt: Type.String({ format: 'date-time' }),
  occurredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Reported by the platform itself (ORDER_PLACED, RECEIPT_REVIEWED), not by a tenant's POST /events. */
  intrinsic: Type.Optional(Type.Literal(true)),
});
export type EventJob = Static<typeof EventJob>;

/** The job of an intrinsic event `id`: its id is derived from the event's, so GET /events/{id}/reactions and the recovery sweep find it. */
export function eventJobId(id: number): string {
  // BullMQ refuses custom ids that are whole numbers (they could collide with its own).
  return `event-${id}`;
}

/**
 * The payload of one `events` job: the reports POST /v1/events accepted together, duplicates of
 * the moment included (the worker registers only those the acceptance record holds), or one event
 * the platform reported itself.
 */
export const EventBatch = Type.Object({ events: Type.Array(EventJob, { minItems: 1 }) });
export type EventBatch = Static<typeof EventBatch>;

/**
 * What an `events` job may carry: a batch, or one report alone as every report was queued before
 * reports were batched, so that jobs queued by an older release are still registered while it is
 * replaced.
 */
export const EventsJobData = Type.Union([EventBatch, EventJob]);
export type EventsJobData = Static<typeof EventsJobData>;

/** The queue events are registered from. */
export interface EventsQueue {
  events: Queue<EventsJobData>;
}

/**
 * The events of a job, and whether the job itself claimed them: an intrinsic event's job, or a
 * report queued alone by an older release, was deduplicated by BullMQ and is registered as it
 * is; a batch of reports is registered as far as the acceptance record holds them.
 */
export function jobEvents(data: EventsJobData): { events: EventJob[]; claimedByJob: boolean } {
  if (!('events' in data)) return { events: [data], claimedByJob: true };
  return { events: data.events, claimedByJob: data.events.every((event) => event.intrinsic === true) };
}
