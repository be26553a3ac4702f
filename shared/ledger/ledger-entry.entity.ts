import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';
import { tenantOwned } from '../tenants/tenant-owned.js';

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
  indexes: [
    { properties: ['tenant', 'user', 'createdAt'] },
    // Each purchase spends once: a partial index, so refunds and other kinds may name the purchase too.
    {
      name: 'ledger_entry_spend_purchase_id_unique',
      expression: `create unique index "ledger_entry_spend_purchase_id_unique" on "ledger_entry" ("purchase_id") where "kind" = 'SPEND'`,
    },
    // A refunded purchase (a partner order refused for good) is reversed once.
    {
      name: 'ledger_entry_reversal_purchase_id_unique',
      expression: `create unique index "ledger_entry_reversal_purchase_id_unique" on "ledger_entry" ("purchase_id") where "kind" = 'REVERSAL'`,
    },
  ],
  properties: {
    ...tenantOwned(),
    user: p.manyToOne(User).deleteRule('cascade'),
    kind: p.enum([...LEDGER_KINDS]),
    /** Signed: earnings positive, spending, expiry and reversals negative. */
    points: p.bigint('number'),
    eventId: p.bigint('number').nullable(),
    reactorId: p.uuid().nullable(),
    /** A SPEND's purchase, or the purchase a REVERSAL refunds. */
    purchaseId: p.uuid().nullable(),
    /** An ADJUSTMENT's reason, as the admin gave it. */
    reason: p.text().nullable(),
    /** An ADJUSTMENT's author: the admin token's subject, or the CLI. */
    actor: p.string().nullable(),
    /** A REVERSAL's EARN: each is reversed at most once. */
    reversesEntryId: p.uuid().nullable().unique(),
    /** An EXPIRY's EARN: each expires at most once (docs/points.md#expiry). */
    expiresEntryId: p.uuid().nullable().unique(),
    /** An EARN cut by the earn cap: the points its reactor asked for; `points` is what was granted. */
    requestedPoints: p.bigint('number').nullable(),
    /** A bulk ADJUSTMENT's job (docs/points.md#bulk-adjustments). */
    jobId: p.uuid().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().nullable(),
  },
});

export type LedgerEntry = InferEntity<typeof LedgerEntry>;
