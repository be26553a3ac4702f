import { zonedDate, zonedInstant } from '../kernel/zoned-time.js';
import type { EntityManager } from '../platform/db/orm.js';
import { RuleEngineError } from '../platform/errors/app-errors.js';
import type { RuleEngineResult } from '../rules/rule-engine.js';
import type { RuleSet } from '../rules/rule-set.entity.js';
import type { TransactionRuleEngine } from '../rules/transaction-rule-engine.js';
import type { VenueArea, VenueDirectory } from '../venues/venue-directory.js';
import type { ClaimUnderReview } from './claim-under-review.js';
import type { ClaimData } from './data-shortfall.js';
import { Receipt } from './receipt.entity.js';
import { receiptTransaction } from './receipt-transaction.js';
import { reviewSettings, type ReviewSettings } from './review-settings.js';

export interface ReviewerDependencies {
  ruleEngine: TransactionRuleEngine;
  venues: VenueDirectory;
}

/** What the decision reads of a rule set: its id, and which of its rules are BASKET rules. */
type RanRuleSet = Pick<RuleSet, 'id'> & { rules: Pick<RuleSet['rules'][number], 'id' | 'type'>[] };

/** The rule set that applies to a claim, and what it answered or the error it threw. */
export type RuleRun =
  { ruleSet: RanRuleSet; result: RuleEngineResult } | { ruleSet: RanRuleSet; error: RuleEngineError };

/** What the automated checks read of a claim: its parsed fields, where it was made, and its id for the spot check. */
export type ReviewedReceipt = ClaimData &
  Pick<
    Receipt,
    | 'id'
    | 'serviceDate'
    | 'timezone'
    | 'merchantName'
    | 'merchantLegalName'
    | 'locationIdentifier'
    | 'submissionPosition'
    | 'formatSlug'
  >;

/**
 * Everything the automated decision is made from, read before it is made, so that the decision
 * (automated-review.ts) does no I/O: the claim and the duplicates found as it was read, the
 * tenant's review settings, and what the later checks look up, each only where a setting asks for it.
 */
export interface ReviewFacts extends Omit<ClaimUnderReview, 'receipt' | 'submitter' | 'tenant'> {
  /** What the checks read of the claim. */
  receipt: ReviewedReceipt;
  settings: ReviewSettings;
  /** When the review runs: INVALID_DATE counts the claim's age to this day. */
  now: Date;
  /** The tenant's venues, with review.requireVenue; null without. */
  venues: ReadonlyMap<string, VenueArea> | null;
  /** The submitter's claims made earlier the same day, not rejected, of the claim's format; null where no limit applies. */
  claimsOfFormatToday: number | null;
  /** The same, at the claim's merchant. */
  claimsAtMerchantToday: number | null;
  /** The rule set that applies and what it answered; null when none does. */
  rules: RuleRun | null;
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
  return {
    ...claim,
    settings,
    now,
    venues: settings.requireVenue ? await deps.venues.forTenant(claim.tenant.id) : null,
    claimsOfFormatToday:
      perFormat !== undefined && receipt.formatSlug
        ? await claimsToday(em, claim, { formatSlug: receipt.formatSlug })
        : null,
    claimsAtMerchantToday:
      perMerchant !== undefined && receipt.merchantName
        ? await claimsToday(em, claim, { merchantName: { $ilike: receipt.merchantName.trim() } })
        : null,
    rules: await runRules(deps.ruleEngine, claim),
  };
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
