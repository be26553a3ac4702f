import type { MemberReference } from '../users/lookup-user.js';
import type { OrderLineItem } from './order.entity.js';

/** docs/receipts.md#orders: the whole body of POST /v1/orders; nothing else is accepted. */
export interface OrderInput {
  transactionId: string;
  total: number;
  subtotal?: number;
  currency?: string;
  locationId: string;
  cashierId?: string;
  lineItems: OrderLineItem[];
  occurredAt?: string;
  submitter?: MemberReference;
}
