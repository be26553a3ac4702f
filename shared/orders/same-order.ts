import { stringify as canonicalize } from 'safe-stable-stringify';
import { storedAmount } from '../platform/db/stored-amount.js';
import { referencesMember } from '../users/lookup-user.js';
import type { User } from '../users/user.entity.js';
import type { Order, OrderLineItem } from './order.entity.js';
import type { OrderInput } from './order-input.js';

/**
 * docs/receipts.md#orders: the fields of a submission that differ from the order already stored for
 * its (locationId, transactionId), in the body's order; none when it is the same order sent again.
 * Each field is compared as it is stored, so a retry of the very same body is always the same:
 * amounts to 4 decimal places, `occurredAt` as an instant (`09:15+01:00` is `08:15Z`), an absent
 * optional field as null, the submitter as the member it names (by id, authIdentifier or account
 * number alike), line items in order, each by the fields the client sent (the product a line was
 * mapped to from the catalogue is the platform's, not the client's).
 */
export function differingFields(order: Order, input: OrderInput): string[] {
  const same: Record<string, boolean> = {
    total: sameAmount(order.total, input.total),
    subtotal: sameAmount(order.subtotal, input.subtotal),
    currency: (order.currency ?? null) === (input.currency ?? null),
    cashierId: (order.cashierId ?? null) === (input.cashierId ?? null),
    lineItems: sameLineItems(order.lineItems, input.lineItems),
    occurredAt: (order.occurredAt?.getTime() ?? null) === (input.occurredAt ? Date.parse(input.occurredAt) : null),
    submitter: sameSubmitter(order.submitter as User | null | undefined, input.submitter),
  };
  return Object.keys(same).filter((field) => !same[field]);
}

/** The same member, however the submission names it (its id, authIdentifier or account number), or none both times. */
function sameSubmitter(stored: User | null | undefined, sent: OrderInput['submitter']): boolean {
  if (!stored || !sent) return !stored && !sent;
  return referencesMember(sent, stored);
}

/** Amounts are stored to 4 decimal places (order.entity.ts): two that store alike are the same. */
function sameAmount(stored: number | null | undefined, sent: number | undefined): boolean {
  if (stored === null || stored === undefined || sent === undefined) return (stored ?? null) === (sent ?? null);
  return Number(stored) === storedAmount(sent);
}

function sameLineItems(stored: OrderLineItem[], sent: OrderLineItem[]): boolean {
  if (stored.length !== sent.length) return false;
  return stored.every((item, index) => {
    const client = sent[index]!;
    const { productId, ...rest } = item;
    const comparable = client.productId === undefined ? rest : { ...rest, productId };
    return canonicalize(comparable) === canonicalize(client);
  });
}
