import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '../platform/db/orm.js';
import { storedAmount } from '../platform/db/stored-amount.js';
import { ORDER_PLACED } from '../kernel/system-event-names.js';
import type { EventIdAllocator } from '../events/event-ids.js';
import {
  intrinsicEventId,
  queueIntrinsicEvent,
  type IntrinsicEventDependencies,
} from '../events/queue-intrinsic-event.js';
import type { ProductCatalogues } from '../products/product-catalogue.js';
import { findReferencedUser } from '../users/lookup-user.js';
import type { User } from '../users/user.entity.js';
import { Order } from './order.entity.js';
import { withoutAbsent } from '../platform/json/without-absent.js';
import { ConflictError } from '../platform/errors/app-errors.js';
import { differingFields } from './same-order.js';
import type { OrderInput } from './order-input.js';

export interface OrderDependencies extends IntrinsicEventDependencies {
  eventIds: EventIdAllocator;
  products: ProductCatalogues;
}

export function orderView(order: Order) {
  return {
    id: order.id,
    transactionId: order.transactionId,
    locationId: order.locationId,
    cashierId: order.cashierId ?? null,
    total: order.total,
    subtotal: order.subtotal ?? null,
    currency: order.currency ?? null,
    lineItems: order.lineItems,
    occurredAt: order.occurredAt?.toISOString() ?? null,
    submitter: order.submitter ? { authIdentifier: (order.submitter as User).authIdentifier } : null,
    /** The ORDER_PLACED event, for GET /v1/events/{id}/reactions. */
    eventId: order.eventId ?? null,
    createdAt: order.createdAt.toISOString(),
  };
}

/**
 * POST /v1/orders (docs/receipts.md#orders). The first submission of a (locationId, transactionId)
 * stores the order and reports ORDER_PLACED, with the submitter or the service subject; the same
 * order again answers the first and reports nothing new, and another body under the same pair is
 * 409, naming what differs (a till must not believe a changed sale was recorded). The event's id is allocated and stored with the
 * order before it is queued, so a submission repeated after a failure (the process died between the
 * commit and the queue, say) queues the same event again, which the event worker registers once.
 */
export async function placeOrder(
  em: EntityManager,
  deps: OrderDependencies,
  tenantId: string,
  input: OrderInput,
  id: string = randomUUID(),
): Promise<{ order: Order; created: boolean }> {
  const existing = await findOrder(em, tenantId, input.locationId, input.transactionId);
  if (existing) {
    checkSameOrder(existing, input);
    await reportOrderPlaced(deps, tenantId, existing);
    return { order: existing, created: false };
  }
  const submitter = input.submitter ? await findReferencedUser(em, tenantId, input.submitter) : null;

  const catalogue = await deps.products.forTenant(tenantId);
  const order = em.create(Order, {
    id,
    tenant: tenantId,
    transactionId: input.transactionId,
    locationId: input.locationId,
    cashierId: input.cashierId ?? null,
    // As their columns keep them: the 201 and ORDER_PLACED carry what a retry's 200 reads back.
    total: storedAmount(input.total),
    subtotal: input.subtotal === undefined ? null : storedAmount(input.subtotal),
    currency: input.currency ?? null,
    lineItems: catalogue.mapLineItems(input.lineItems),
    occurredAt: input.occurredAt ? new Date(input.occurredAt) : null,
    submitter,
    eventId: await intrinsicEventId(deps, tenantId, ORDER_PLACED),
  });
  try {
    await em.flush();
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    // Another till submitted the same transaction first: answer its order.
    const first = await findOrder(em.fork(), tenantId, input.locationId, input.transactionId);
    if (!first) throw error;
    checkSameOrder(first, input);
    return { order: first, created: false };
  }
  await reportOrderPlaced(deps, tenantId, order);
  return { order, created: true };
}

function checkSameOrder(order: Order, input: OrderInput): void {
  const fields = differingFields(order, input);
  if (fields.length === 0) return;
  throw new ConflictError(
    `Transaction "${input.transactionId}" at location "${input.locationId}" was already submitted with another ${fields.join(', ')}: ` +
      'a corrected sale needs its own transactionId',
    { data: { fields, orderId: order.id } },
  );
}

async function findOrder(
  em: EntityManager,
  tenantId: string,
  locationId: string,
  transactionId: string,
): Promise<Order | null> {
  return em.findOne(Order, { tenant: tenantId, locationId, transactionId }, { populate: ['submitter'] });
}

/** Queues an order's ORDER_PLACED (again): its id is the order's, so nothing is registered twice. */
export async function reportOrderPlaced(
  deps: IntrinsicEventDependencies,
  tenantId: string,
  order: Order,
): Promise<void> {
  if (order.eventId === null || order.eventId === undefined) return;
  await queueIntrinsicEvent(deps, {
    tenantId,
    typeName: ORDER_PLACED,
    eventId: order.eventId,
    userId: order.submitter?.id ?? null,
    payload: orderPlacedPayload(order),
    reportedAt: order.createdAt,
    occurredAt: order.occurredAt?.toISOString() ?? null,
  });
}

/** docs/events.md#system-event-types: `{orderId, transactionId, locationId, cashierId, total, subtotal, currency, lineItems, occurredAt}`, absent values omitted. */
export function orderPlacedPayload(order: Order): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    orderId: order.id,
    transactionId: order.transactionId,
    locationId: order.locationId,
    cashierId: order.cashierId,
    total: order.total,
    subtotal: order.subtotal,
    currency: order.currency,
    lineItems: order.lineItems,
    occurredAt: order.occurredAt?.toISOString(),
  };
  return withoutAbsent(payload);
}
