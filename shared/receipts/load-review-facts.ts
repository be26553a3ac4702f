import { zonedDate, zonedInstant } from '../kernel/zoned-time.js';
import type { EntityManager } from '../platform/db/orm.js';
import { RuleEngineError } from '../platform/errors/app-errors.js';
import type { TransactionRuleEngine } from '../rules/transaction-rule-engine.js';
import type { VenueDirectory } from '../venues/venue-directory.js';
import { decides, needsLookup, REVIEW_CHECKS, type ReviewCheck } from './automated-review.js';
import type { ClaimUnderReview } from './claim-under-review.js';
import { Receipt } from './receipt.entity.js';
import { receiptTransaction } from './receipt-transaction.js';
import type { ReviewFacts, RuleRun } from './review-facts.js';
import { reviewSettings } from './review-settings.js';

export interface ReviewerDependencies {
  ruleEngine: TransactionRuleEngine;
  venues: VenueDirectory;
}

/** Reads the facts of one claim's automated review (ReviewFacts). */
export async function loadReviewFacts(
  em: EntityManager,
  deps: ReviewerDependencies,
  claim: ClaimUnderReview,
  now: Date,
): Promise<ReviewFacts> {
  const facts: ReviewFacts = {
    ...claim,
    settings: reviewSettings(claim.tenant.configuration),
    now,
    venues: null,
    claimsOfFormatToday: null,
    claimsAtMerchantToday: null,
    rules: null,
  };
  // Check by check, in their order, each one's facts read just before it runs: the first that
  // decides ends the review (docs/receipts.md#automated-checks), and a claim rejected as a
  // duplicate never waits on, or fails with, the lookups it no longer needs.
  for (const check of REVIEW_CHECKS) {
    if (needsLookup(facts, check)) await LOOKUPS[check]?.(em, deps, claim, facts);
    if (decides(facts, check)) return facts;
  }
  facts.rules = await runRules(deps.ruleEngine, claim);
  return facts;
}

/** The facts the checks look up, each read when the claim's settings ask its check for it (needsLookup). */
const LOOKUPS: Partial<
  Record<
    ReviewCheck,
    (em: EntityManager, deps: ReviewerDependencies, claim: ClaimUnderReview, facts: ReviewFacts) => Promise<void>
  >
> = {
  INVALID_VENUE: async (_em, deps, claim, facts) => {
    facts.venues = await deps.venues.forTenant(claim.tenant.id);
  },
  FORMAT_SUBMISSION_LIMIT_EXCEEDED: async (em, _deps, claim, facts) => {
    facts.claimsOfFormatToday = await claimsToday(em, claim, { formatSlug: claim.receipt.formatSlug });
  },
  MERCHANT_SUBMISSION_LIMIT_EXCEEDED: async (em, _deps, claim, facts) => {
    facts.claimsAtMerchantToday = await claimsToday(em, claim, {
      merchantName: { $ilike: claim.receipt.merchantName!.trim() },
    });
  },
};

/** Claims the submitter made earlier the same day (by the receipt's zone, as INVALID_DATE counts days), not rejected. */
function claimsToday(em: EntityManager, claim: ClaimUnderReview, narrowing: Record<string, unknown>): Promise<number> {
  const { createdAt, timezone } = claim.receipt;
  const dayStart = zonedInstant(zonedDate(createdAt, timezone), '00:00:00', timezone);
  const where = {
    tenant: claim.tenant.id,
    submitter: claim.receipt.submitter.id,
    status: { $ne: 'REJECTED' },
    createdAt: { $gte: dayStart, $lt: createdAt },
    ...narrowing,
  };
  return em.count(Receipt, where as never);
}

/** The tenant's rule set that applies to the claim's transaction, run; an engine that throws is a fact too. */
async function runRules(engine: TransactionRuleEngine, claim: ClaimUnderReview): Promise<RuleRun | null> {
  const transaction = receiptTransaction(claim.receipt, claim.submitter);
  const ruleSet = await engine.select(claim.tenant.id, transaction);
  if (!ruleSet) return null;
  try {
    return { ruleSet, result: await engine.run(claim.tenant.id, ruleSet, transaction) };
  } catch (error) {
    if (!(error instanceof RuleEngineError)) throw error;
    return { ruleSet, error };
  }
}
