import { eventJobId, type EventsQueue } from '../events/event-job.js';
import type { IntrinsicEventDependencies } from '../events/queue-intrinsic-event.js';
import { idsWithUnregisteredEvents } from '../events/stranded-events.js';
import type { Orm } from '../platform/db/orm.js';
import { retryIfFailed, type SweepWindow } from '../platform/queues/stranded-work.js';
import { Order } from './order.entity.js';
import { reportOrderPlaced } from './order-service.js';

/**
 * Orders whose ORDER_PLACED a crash left unqueued (or whose job failed for good), reported again
 * under the event id the order keeps, which the event worker registers once.
 */
export async function recoverStrandedOrders(
  deps: IntrinsicEventDependencies & { orm: Orm; queues: EventsQueue },
  window: SweepWindow,
) {
  const em = deps.orm.em.fork();
  const orderIds = await idsWithUnregisteredEvents(em, 'pos_order', window);
  const orders = orderIds.length ? await em.find(Order, { id: { $in: orderIds } }) : [];
  for (const order of orders) {
    await retryIfFailed(deps.queues.events, eventJobId(order.eventId!));
    await reportOrderPlaced(deps, order.tenant.id, order);
  }
  return { orderEvents: orders.length };
}
