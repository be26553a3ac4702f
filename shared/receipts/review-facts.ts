import type { RuleEngineError } from '../platform/errors/app-errors.js';
import type { RuleEngineResult } from '../rules/rule-engine.js';
import type { RuleSet } from '../rules/rule-set.entity.js';
import type { VenueArea } from '../venues/venue-directory.js';
import type { ClaimUnderReview } from './claim-under-review.js';
import type { Receipt } from './receipt.entity.js';
import type { ReviewSettings } from './review-settings.js';
import type { ClaimData } from './data-shortfall.js';

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
 * tenant's review settings, and what the later checks look up (load-review-facts.ts), each only
 * where a setting asks for it and no check before it has decided.
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
