import { createHash } from 'node:crypto';
import { zonedDate } from '../kernel/zoned-time.js';
import type { RuleEngineResult } from '../rules/rule-engine.js';
import { REASON_KEY, VERDICT_KEY } from '../rules/rule-definition.js';
import { REVIEW_REASONS, type ReviewReason, type ReviewVerdict } from '../rules/review-enums.js';
import { venueMatchesOperator } from '../rules/venue-matches.js';
import { dataShortfall } from './data-shortfall.js';
import type { ReviewFacts, RuleRun } from './review-facts.js';
import type { CheckOutcome } from './review.entity.js';
import { DUPLICATE_IMAGE_MAX_DISTANCE, PERCEPTUAL_HASH_BITS } from './similar-image.js';

export interface AutomatedDecision {
  verdict: ReviewVerdict;
  reason: ReviewReason;
  checks: CheckOutcome[];
  ruleSetId: string | null;
  ruleEngineResult: RuleEngineResult | null;
}

/** A check's finding: a decision ends the review; undefined lets the next check run. */
type Finding = { verdict: ReviewVerdict; reason: ReviewReason; detail: string } | { passed: string } | undefined;

/** The checks before the rule engine, in their documented order (docs/receipts.md#automated-checks). */
const CHECKS = [
  ['DUPLICATE', duplicate],
  ['INVALID_DATE', invalidDate],
  ['INVALID_MERCHANT', invalidMerchant],
  ['INVALID_VENUE', invalidVenue],
  ['FORMAT_SUBMISSION_LIMIT_EXCEEDED', formatLimit],
  ['MERCHANT_SUBMISSION_LIMIT_EXCEEDED', merchantLimit],
  ['INSUFFICIENT_DATA', insufficientData],
] as const satisfies readonly (readonly [string, (facts: ReviewFacts) => Finding])[];

export type ReviewCheck = (typeof CHECKS)[number][0];

/** The checks in their order, for the loader to read each one's facts before it runs (load-review-facts.ts). */
export const REVIEW_CHECKS: readonly ReviewCheck[] = CHECKS.map(([name]) => name);

/**
 * Whether the claim's settings ask `check` for a fact that is looked up (the venues, a day's
 * claims): written once, for the check to skip itself and for the loader to read the fact.
 */
export function needsLookup({ settings, receipt }: ReviewFacts, check: ReviewCheck): boolean {
  if (check === 'INVALID_VENUE') return settings.requireVenue;
  if (check === 'FORMAT_SUBMISSION_LIMIT_EXCEEDED')
    return settings.limits.perFormat !== undefined && !!receipt.formatSlug;
  if (check === 'MERCHANT_SUBMISSION_LIMIT_EXCEEDED')
    return settings.limits.perMerchant !== undefined && !!receipt.merchantName;
  return false;
}

/** Whether `check` decides the claim on these facts: the review ends there. */
export function decides(facts: ReviewFacts, check: ReviewCheck): boolean {
  const finding = CHECKS.find(([name]) => name === check)![1](facts);
  return finding !== undefined && 'verdict' in finding;
}

/**
 * The automated decision on a parsed claim (docs/receipts.md#automated-checks), from its facts
 * alone (review-facts.ts reads them): the checks in their documented order, the first that decides
 * ending the review, each recorded with what it found; then the rule engine, spot checks, else
 * AUTHORIZE VALID_DATA. Repeatable: the spot check draws from the receipt's id, and duplicates and
 * limits count only claims made before this one.
 */
export function decide(facts: ReviewFacts): AutomatedDecision {
  const { receipt, settings } = facts;
  const checks: CheckOutcome[] = [];
  for (const [check, run] of CHECKS) {
    const finding = run(facts);
    if (finding && 'verdict' in finding) {
      checks.push({ check, passed: false, detail: finding.detail });
      return { verdict: finding.verdict, reason: finding.reason, checks, ruleSetId: null, ruleEngineResult: null };
    }
    checks.push({ check, passed: true, ...(finding ? { detail: finding.passed } : {}) });
  }

  const engine = ruleEngine(facts.rules);
  checks.push({ check: 'RULE_ENGINE', passed: engine.decision === undefined, detail: engine.detail });
  const ruleSet = { ruleSetId: engine.ruleSetId, ruleEngineResult: engine.result };
  if (engine.decision) return { ...engine.decision, checks, ...ruleSet };

  if (spotCheckDraw(receipt.id) < settings.spotCheckRate) {
    checks.push({
      check: 'SPOT_CHECK',
      passed: false,
      detail: `drawn for a spot check at rate ${settings.spotCheckRate}`,
    });
    return { verdict: 'ABSTAIN', reason: 'FLAGGED_FOR_SPOT_CHECK', checks, ...ruleSet };
  }
  checks.push({ check: 'SPOT_CHECK', passed: true });
  return { verdict: 'AUTHORIZE', reason: 'VALID_DATA', checks, ...ruleSet };
}

/**
 * "same image hash, or another picture of the same receipt (issue 32: perceptual hashes within
 * DUPLICATE_IMAGE_MAX_DISTANCE bits), or same merchant, date, total and barcode or transaction id as a claim not
 * rejected", found as the claim was read; and (issue 22) the same submitter's claim of the same
 * merchant, date, time and total, when no barcode or transaction id tells the two apart: the same
 * claim sent twice.
 */
function duplicate({ sameImageAs, similarImage, sameDetailsAs, sameClaimAs }: ReviewFacts): Finding {
  if (sameImageAs)
    return { verdict: 'REJECT', reason: 'DUPLICATE', detail: `the same image as receipt ${sameImageAs}` };
  if (similarImage)
    return {
      verdict: 'REJECT',
      reason: 'DUPLICATE',
      detail: `another picture of receipt ${similarImage.receiptId}: their images' perceptual hashes differ in ${similarImage.distance} of ${PERCEPTUAL_HASH_BITS} bits, at most ${DUPLICATE_IMAGE_MAX_DISTANCE} allowed`,
    };
  if (sameDetailsAs)
    return {
      verdict: 'REJECT',
      reason: 'DUPLICATE',
      detail: `the same merchant, date, total and barcode or transaction id as receipt ${sameDetailsAs}`,
    };
  if (sameClaimAs)
    return {
      verdict: 'REJECT',
      reason: 'DUPLICATE',
      detail: `the same submitter, merchant, date, time and total as receipt ${sameClaimAs}, and no barcode or transaction id that tells them apart`,
    };
  return undefined;
}

/** "future, or older than review.maxAgeDays", by the calendar of the receipt's zone. */
function invalidDate({ receipt, settings, now }: ReviewFacts): Finding {
  if (!receipt.serviceDate) return undefined;
  const today = zonedDate(now, receipt.timezone);
  if (receipt.serviceDate > today)
    return {
      verdict: 'REJECT',
      reason: 'INVALID_DATE',
      detail: `dated ${receipt.serviceDate}, after today (${today})`,
    };
  const oldest = new Date(`${today}T00:00:00Z`);
  oldest.setUTCDate(oldest.getUTCDate() - settings.maxAgeDays);
  const limit = oldest.toISOString().slice(0, 10);
  if (receipt.serviceDate < limit)
    return {
      verdict: 'REJECT',
      reason: 'INVALID_DATE',
      detail: `dated ${receipt.serviceDate}, more than ${settings.maxAgeDays} days ago`,
    };
  return undefined;
}

/** "outside review.merchants when set"; a merchant that could not be read goes to a person instead. */
function invalidMerchant({ receipt, settings }: ReviewFacts): Finding {
  if (!settings.merchants) return undefined;
  if (!receipt.merchantName)
    return {
      verdict: 'ABSTAIN',
      reason: 'INSUFFICIENT_DATA',
      detail: 'the merchant could not be read, and only some merchants are accepted',
    };
  // The legal name counts too: a tenant may list the company (SYL ROASTED DELIGHTS SDN BHD) whose
  // receipts print a trading name above it, which is then the merchant read.
  const names = [receipt.merchantName, receipt.merchantLegalName].flatMap((name) =>
    name ? [name.trim().toLowerCase()] : [],
  );
  if (settings.merchants.some((merchant) => names.includes(merchant.trim().toLowerCase()))) return undefined;
  return {
    verdict: 'REJECT',
    reason: 'INVALID_MERCHANT',
    detail: `"${receipt.merchantName}" is not one of the accepted merchants`,
  };
}

/** With `review.requireVenue`, the claim was made at one of the tenant's venues. */
function invalidVenue(facts: ReviewFacts): Finding {
  if (!needsLookup(facts, 'INVALID_VENUE')) return undefined;
  const { receipt } = facts;
  const venues = read(facts.venues, 'the venues');
  const matches = venueMatchesOperator(venues);
  const transaction = {
    locationIdentifier: receipt.locationIdentifier,
    submissionPosition: receipt.submissionPosition,
  };
  for (const venueId of venues.keys())
    if (matches.evaluate(transaction, venueId)) return { passed: `made at venue ${venueId}` };
  return {
    verdict: 'REJECT',
    reason: 'INVALID_VENUE',
    detail: 'neither the location identifier nor the submission position is at one of the venues',
  };
}

function formatLimit(facts: ReviewFacts): Finding {
  if (!needsLookup(facts, 'FORMAT_SUBMISSION_LIMIT_EXCEEDED')) return undefined;
  const { perFormat } = facts.settings.limits;
  return dailyLimit(
    perFormat!,
    facts.claimsOfFormatToday,
    `of format ${facts.receipt.formatSlug}`,
    'FORMAT_SUBMISSION_LIMIT_EXCEEDED',
  );
}

function merchantLimit(facts: ReviewFacts): Finding {
  if (!needsLookup(facts, 'MERCHANT_SUBMISSION_LIMIT_EXCEEDED')) return undefined;
  const { perMerchant } = facts.settings.limits;
  return dailyLimit(
    perMerchant!,
    facts.claimsAtMerchantToday,
    `at ${facts.receipt.merchantName}`,
    'MERCHANT_SUBMISSION_LIMIT_EXCEEDED',
  );
}

/** A day's limit reached: `made` claims before this one `where`, when `limit` are allowed. */
function dailyLimit(limit: number, made: number | null, where: string, reason: ReviewReason): Finding {
  const before = read(made, `the claims today ${where}`);
  if (before < limit) return undefined;
  return { verdict: 'REJECT', reason, detail: `${before} claims ${where} today; the limit is ${limit}` };
}

/**
 * A fact a setting asks for, which load-review-facts.ts reads before any check needs it: one
 * missing is the loader's fault, and fails the review (to be retried) rather than passing the check.
 */
function read<Fact>(fact: Fact | null, what: string): Fact {
  if (fact === null) throw new Error(`The automated review was not given ${what}`);
  return fact;
}

/** "no total or date, or confidence under review.minConfidence: ABSTAIN": the page's, the total's or the date's. */
function insufficientData({ receipt, settings }: ReviewFacts): Finding {
  const shortfall = dataShortfall(receipt, settings.minConfidence);
  return shortfall ? { verdict: 'ABSTAIN', reason: 'INSUFFICIENT_DATA', detail: shortfall } : undefined;
}

interface EngineOutcome {
  decision?: { verdict: ReviewVerdict; reason: ReviewReason };
  ruleSetId: string | null;
  result: RuleEngineResult | null;
  detail: string;
}

/**
 * "the rule engine (its verdict and reason; a throw is ABSTAIN RULE_ENGINE_THREW_ERROR; BASKET rules
 * all failing is REJECT NO_QUALIFYING_PRODUCTS)". A verdict of AUTHORIZE, or none, leaves the
 * review to the checks after it (docs/receipts.md#automated-checks).
 */
function ruleEngine(run: RuleRun | null): EngineOutcome {
  if (!run) return { ruleSetId: null, result: null, detail: 'no active rule set applies' };
  const { ruleSet } = run;
  if ('error' in run)
    return {
      decision: { verdict: 'ABSTAIN', reason: 'RULE_ENGINE_THREW_ERROR' },
      ruleSetId: ruleSet.id,
      result: null,
      detail: run.error.message,
    };
  const { result } = run;
  const verdict = result.result[VERDICT_KEY];
  if (verdict === 'REJECT' || verdict === 'ABSTAIN') {
    const reason = result.result[REASON_KEY];
    const known = (REVIEW_REASONS as readonly unknown[]).includes(reason) ? (reason as ReviewReason) : 'OTHER';
    return {
      decision: { verdict, reason: known },
      ruleSetId: ruleSet.id,
      result,
      detail: `rule set ${ruleSet.id} answered ${verdict}`,
    };
  }
  const basketIds = new Set(ruleSet.rules.filter((rule) => rule.type === 'BASKET').map((rule) => rule.id));
  const baskets = result.rules.filter((rule) => basketIds.has(rule.id));
  if (baskets.length > 0 && baskets.every((rule) => rule.outcome === 'failure')) {
    return {
      decision: { verdict: 'REJECT', reason: 'NO_QUALIFYING_PRODUCTS' },
      ruleSetId: ruleSet.id,
      result,
      detail: `no BASKET rule of rule set ${ruleSet.id} matched`,
    };
  }
  return { ruleSetId: ruleSet.id, result, detail: `rule set ${ruleSet.id} ran` };
}

/** A fixed draw in [0, 1) per receipt, so running the review again decides the same. */
export function spotCheckDraw(receiptId: string): number {
  return createHash('sha256').update(receiptId).digest().readUInt32BE(0) / 2 ** 32;
}
