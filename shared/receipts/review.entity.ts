import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { RuleEngineResult } from '../rules/rule-engine.js';
import { Receipt } from './receipt.entity.js';
import { REVIEW_REASONS, REVIEW_VERDICTS } from '../rules/review-enums.js';
import { tenantOwned } from '../tenants/tenant-owned.js';

/** A review (docs/receipts.md#records): `reviwer` is spelled so on purpose. */
export interface Reviewer {
  authIssuer: string;
  authIdentifier: string;
  name?: string;
}

/** One automated check and what it found, in the order docs/receipts.md#automated-checks gives. */
export interface CheckOutcome {
  check: string;
  passed: boolean;
  detail?: string;
}

/**
 * A review of a receipt: the automated decision (one per receipt) or an admin's. It keeps what the
 * decision was made from (the checks, the rule set and its result), so it can be explained later.
 */
export const Review = defineEntity({
  name: 'Review',
  tableName: 'receipt_review',
  indexes: [
    { properties: ['receipt', 'createdAt'] },
    { properties: ['eventId'] },
    // The recovery sweep looks for reviews whose event was never registered.
    {
      name: 'receipt_review_reported_index',
      expression:
        'create index "receipt_review_reported_index" on "receipt_review" ("created_at") where "event_id" is not null',
    },
  ],
  // One automated review per receipt, however often the reviewer runs (retries, stalled jobs).
  uniques: [
    {
      name: 'receipt_review_automated_unique',
      expression:
        'create unique index "receipt_review_automated_unique" on "receipt_review" ("receipt_id") where "is_automated"',
    },
  ],
  properties: {
    ...tenantOwned(),
    receipt: p.manyToOne(Receipt).deleteRule('cascade'),
    verdict: p.enum([...REVIEW_VERDICTS]),
    reason: p.enum([...REVIEW_REASONS]),
    isAutomated: p.boolean(),
    reviewer: p.json<Reviewer>().nullable(),
    comment: p.text().nullable(),
    /** The total a person read off the receipt (docs/receipts.md#manual-reviews); an automated review has none. */
    correctedTotal: p.decimal('number').precision(14).scale(4).nullable(),
    checks: p.json<CheckOutcome[]>(),
    ruleSetId: p.uuid().nullable(),
    ruleEngineResult: p.json<RuleEngineResult>().nullable(),
    /** The RECEIPT_REVIEWED event this review's status change reported; null when it changed no status. */
    eventId: p.bigint('number').nullable(),
    /** The receipt's statusVersion this review set; null when it changed no status. */
    statusVersion: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type Review = InferEntity<typeof Review>;
