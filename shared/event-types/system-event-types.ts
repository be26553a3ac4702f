import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import type { JsonSchema } from '../platform/validation/payload-schema.js';
import {
  ORDER_PLACED,
  RECEIPT_REVIEWED,
  REFERRAL_COMPLETED,
  REFERRED_REGISTRATION,
} from '../kernel/system-event-names.js';
import { EventType } from './event-type.entity.js';

const money = { type: 'number' };
const lineItems = { type: 'array', items: { type: 'object' } };

const uuid = { type: 'string', format: 'uuid' };

/**
 * The private types every tenant has, reported by the platform itself through the event queue
 * (docs/events.md#system-event-types, payloads included): orders and reviews by the receipts
 * service, referrals by registration. They have no secret: nothing outside the platform reports
 * them unless an admin rotates one in. Each tenant keeps its own copy of a schema, made when it is
 * created: a tenant created before a type was added gets it from the migration that added it
 * (Migration20261128041500 for the referral types), and before a payload gained a property, that
 * property from the migration that added it (Migration20261128115000 for RECEIPT_REVIEWED's).
 */
export const SYSTEM_EVENT_TYPES: { name: string; description: string; schema: JsonSchema }[] = [
  {
    name: ORDER_PLACED,
    description: 'A point-of-sale order was submitted to the receipts service',
    schema: {
      type: 'object',
      required: ['orderId', 'transactionId', 'locationId', 'total', 'lineItems'],
      properties: {
        orderId: { type: 'string' },
        transactionId: { type: 'string' },
        locationId: { type: 'string' },
        cashierId: { type: 'string' },
        total: money,
        subtotal: money,
        currency: { type: 'string' },
        lineItems,
        occurredAt: { type: 'string' },
      },
    },
  },
  {
    name: RECEIPT_REVIEWED,
    description: 'A receipt claim was authorized or rejected',
    schema: {
      type: 'object',
      required: ['receiptId', 'status'],
      properties: {
        receiptId: { type: 'string' },
        status: { type: 'string', enum: ['AUTHORIZED', 'REJECTED'] },
        verdict: { type: 'string' },
        reason: { type: 'string' },
        total: money,
        subtotal: money,
        /** A person's reading of the total (decisions §14), beside the total as read. */
        correctedTotal: money,
        currency: { type: 'string' },
        merchantName: { type: 'string' },
        merchantLegalName: { type: 'string' },
        serviceDate: { type: 'string' },
        servedAt: { type: 'string' },
        lineItems,
        ruleEngineResult: { type: 'object' },
      },
    },
  },
  {
    name: REFERRAL_COMPLETED,
    description: "A member invited by the subject registered with the subject's invite code",
    schema: {
      type: 'object',
      required: ['campaignId', 'referredUserId'],
      properties: {
        campaignId: uuid,
        referredUserId: uuid,
        /** The name of the campaign's tranche this referral reached, when it reached one. */
        tranche: { type: 'string' },
      },
    },
  },
  {
    name: REFERRED_REGISTRATION,
    description: "The subject registered with another member's invite code",
    schema: {
      type: 'object',
      required: ['campaignId', 'referrerId'],
      properties: { campaignId: uuid, referrerId: uuid },
    },
  },
];

/** Adds the system types to a new tenant inside the caller's transaction. */
export function createSystemEventTypes(em: EntityManager, tenantId: string): void {
  for (const type of SYSTEM_EVENT_TYPES) {
    em.create(EventType, {
      id: randomUUID(),
      tenant: tenantId,
      name: type.name,
      description: type.description,
      isPrivate: true,
      schema: type.schema,
      omitFromUserActivity: false,
      isActive: true,
      secretHash: null,
      isSystem: true,
    });
  }
}
