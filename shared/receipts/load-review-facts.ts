import { zonedDate, zonedInstant } from '../kernel/zoned-time.js';
import type { EntityManager } from '../platform/db/orm.js';
import { RuleEngineError } from '../platform/errors/app-errors.js';
import type { TransactionRuleEngine } from '../rules/transaction-rule-engine.js';
import type { VenueDirectory } from '../venues/venue-directory.js';
import { decidedBefore } from './automated-review.js';
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
  const settings = reviewSettings(claim.tenant.configuration);
  const { receipt } = claim;
  const { perFormat, perMerchant } = settings.limits;
  const facts: ReviewFacts = {
    ...claim,
    settings,
    now,
    venues: null,
    claimsOfFormatToday: null,
    claimsAtMerchantToday: null,
    rules: null,
  };
  // In the checks' order, each read only while no check before the one that needs it has decided:
  // the first that decides ends the review (docs/receipts.md#automated-checks), and a claim rejected
  // as a duplicate never waits on, or fails with, the lookups it no longer needs.
  if (settings.requireVenue && !decidedBefore(facts, 'INVALID_VENUE'))
    facts.venues = await deps.venues.forTenant(claim.tenant.id);
  if (perFormat !== undefined && receipt.formatSlug && !decidedBefore(facts, 'FORMAT_SUBMISSION_LIMIT_EXCEEDED'))
    facts.claimsOfFormatToday = await claimsToday(em, claim, { formatSlug: receipt.formatSlug });
  if (perMerchant !== undefined && receipt.merchantName && !decidedBefore(facts, 'MERCHANT_SUBMISSION_LIMIT_EXCEEDED'))
    facts.claimsAtMerchantToday = await claimsToday(em, claim, {
      merchantName: { $ilike: receipt.merchantName.trim() },
    });
  if (!decidedBefore(facts, 'RULE_ENGINE')) facts.rules = await runRules(deps.ruleEngine, claim);
  return facts;
}

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
