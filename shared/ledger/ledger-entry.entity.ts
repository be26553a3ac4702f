import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';

export const LEDGER_KINDS = ['EARN', 'SPEND', 'EXPIRY', 'REVERSAL', 'ADJUSTMENT'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * The points ledger (docs/events.md#the-ledger): append-only, one entry per change of points with
 * its cause. (event, reactor) is unique, so an event delivered twice to a worker grants once.
 */
export const LedgerEntry = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entry',
  uniques: [{ properties: ['eventId', 'reactorId'] }],
  indexes: [{ properties: ['tenant', 'user', 'createdAt'] }],
  properties: {
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    user: p.manyToOne(User).deleteRule('cascade'),
    kind: p.enum([...LEDGER_KINDS]),
    /** Signed: earnings positive, spending, expiry and reversals negative. */
    points: p.bigint('number'),
    eventId: p.bigint('number').nullable(),
    reactorId: p.uuid().nullable(),
    purchaseId: p.uuid().nullable(),
    /** A REVERSAL's EARN: each is reversed at most once. */
    reversesEntryId: p.uuid().nullable().unique(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().nullable(),
  },
});

export type LedgerEntry = InferEntity<typeof LedgerEntry>;
