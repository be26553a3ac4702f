import type { EventJob } from './event-job.js';
import type { EventQueueWriter } from './event-queue-writer.js';
import type { EventTypeDirectory } from './event-type-directory.js';

export interface IntrinsicEventDependencies {
  eventTypes: EventTypeDirectory;
  eventQueue: EventQueueWriter;
  /** decisions.md §5: the tenant's service subject, for proceedings with no member. */
  serviceSubject: string;
}

/** An event the platform reports itself (decisions.md §5: ORDER_PLACED, RECEIPT_REVIEWED). */
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
 * Puts an intrinsic event on the events queue for the event worker to register, as POST /events
 * does for a tenant's own. Its job id comes from the event id kept with its cause (an order, a
 * review), so reporting it again after a failure queues nothing twice, and the worker registers an
 * event id once. The duplicate window is keyed by that id too, not by the payload: a receipt
 * authorized, rejected and authorized again within a minute reports two equal payloads, and both
 * must count. Answers false when the tenant has deactivated the type: nothing is reported.
 */
export async function queueIntrinsicEvent(deps: IntrinsicEventDependencies, event: IntrinsicEvent): Promise<boolean> {
  const found = await deps.eventTypes.find(event.tenantId, event.typeName);
  if (!found?.type.isActive) return false;
  const job: EventJob = {
    id: event.eventId,
    tenantId: event.tenantId,
    eventTypeId: found.type.id,
    eventTypeName: found.type.name,
    userId: event.userId,
    payload: event.payload,
    reportedAt: event.reportedAt.toISOString(),
    occurredAt: event.occurredAt,
    intrinsic: true,
  };
  await deps.eventQueue.enqueue(job, `${event.tenantId}:intrinsic:${event.eventId}`);
  return true;
}
