import type { EventIdAllocator } from './event-ids.js';
import type { EventJob } from './event-job.js';
import type { EventQueueWriter } from './event-queue-writer.js';
import type { EventTypeDirectory } from '../event-types/event-type-directory.js';

export interface IntrinsicEventDependencies {
  eventTypes: EventTypeDirectory;
  eventQueue: EventQueueWriter;
}

/** An event the platform reports itself (docs/events.md#system-event-types: ORDER_PLACED, RECEIPT_REVIEWED). */
export interface IntrinsicEvent {
  tenantId: string;
  typeName: string;
  /** Allocated and stored with its cause beforehand, so reporting again reuses it. */
  eventId: number;
  /** Null for the service subject. */
  userId: string | null;
  payload: Record<string, unknown>;
  reportedAt: Date;
  occurredAt: string | null;
}

/**
 * The id an intrinsic event of `typeName` will carry, allocated before its cause is stored (so
 * reporting it again reuses it), or null while the tenant has the type deactivated: then nothing is
 * reported, and nothing is left for the recovery sweep to report later.
 */
export async function intrinsicEventId(
  deps: IntrinsicEventDependencies & { eventIds: EventIdAllocator },
  tenantId: string,
  typeName: string,
): Promise<number | null> {
  const found = await deps.eventTypes.find(tenantId, typeName);
  return found?.type.isActive ? deps.eventIds.allocate() : null;
}

/**
 * Puts an intrinsic event on the events queue for the event worker to register, as POST /events
 * does for a tenant's own. Its job id comes from the event id kept with its cause (an order, a
 * review), so reporting it again after a failure queues nothing twice, and the worker registers an
 * event id once. The duplicate window is keyed by that id too, not by the payload: a receipt
 * authorized, rejected and authorized again within a minute reports two equal payloads, and both
 * must count. Nothing is reported while the tenant has the type deactivated.
 */
export async function queueIntrinsicEvent(deps: IntrinsicEventDependencies, event: IntrinsicEvent): Promise<void> {
  await queueIntrinsicEvents(deps, [event]);
}

/** queueIntrinsicEvent for events reported together, queued in one round trip. */
export async function queueIntrinsicEvents(deps: IntrinsicEventDependencies, events: IntrinsicEvent[]): Promise<void> {
  const jobs: EventJob[] = [];
  for (const event of events) {
    const found = await deps.eventTypes.find(event.tenantId, event.typeName);
    if (!found?.type.isActive) continue;
    jobs.push({
      id: event.eventId,
      tenantId: event.tenantId,
      eventTypeId: found.type.id,
      eventTypeName: found.type.name,
      userId: event.userId,
      payload: event.payload,
      reportedAt: event.reportedAt.toISOString(),
      occurredAt: event.occurredAt,
      intrinsic: true,
    });
  }
  if (jobs.length) await deps.eventQueue.enqueueIntrinsic(jobs);
}
