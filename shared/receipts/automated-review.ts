import { createHash } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import { queryPrepared } from '../platform/db/prepared-statements.js';
import { RuleEngineError } from '../platform/errors/app-errors.js';
import type { RuleEngineResult } from '../rules/rule-engine.js';
import { REASON_KEY, VERDICT_KEY } from '../rules/rule-definition.js';
import type { TransactionRuleEngine } from '../rules/transaction-rule-engine.js';
import type { Tenant, TenantConfiguration } from '../tenants/tenant.entity.js';
import type { VenueDirectory } from '../venues/venue-directory.js';
import { venueMatchesOperator } from '../rules/venue-matches.js';
import { dataShortfall } from './data-shortfall.js';
import { Receipt } from './receipt.entity.js';
import { receiptTransaction } from './receipt-transaction.js';
import type { CheckOutcome } from './review.entity.js';
import { REVIEW_REASONS, type ReviewReason, type ReviewVerdict } from '../rules/review-enums.js';
import { reviewSettings, type ReviewSettings } from './review-settings.js';
import { DUPLICATE_IMAGE_MAX_DISTANCE, PERCEPTUAL_HASH_BITS } from './similar-image.js';
import { zonedDate, zonedInstant } from '../kernel/zoned-time.js';

export interface AutomatedDecision {
  verdict: ReviewVerdict;
  reason: ReviewReason;
  checks: CheckOutcome[];
  ruleSetId: string | null;
  ruleEngineResult: RuleEngineResult | null;
}

export interface ReviewerDependencies {
  ruleEngine: TransactionRuleEngine;
  venues: VenueDirectory;
}

/** The claim as the reviewer reads it (readClaimUnderReview). */
export interface ClaimUnderReview {
  receipt: Receipt;
  /** The submitter's authIdentifier, a fact for the rule engine. */
  submitter: string;
  /** What the review needs of the claim's tenant: its id and its review settings. */
  tenant: Pick<Tenant, 'id' | 'configuration'>;
  /** The earlier claims the DUPLICATE check found, by image, by details and by claim; null when none. */
  sameImageAs: string | null;
  /** The earlier claim whose image's perceptual hash is nearest within the threshold, and the distance in bits. */
  similarImage: { receiptId: string; distance: number } | null;
  sameDetailsAs: string | null;
  sameClaimAs: string | null;
}

/**
 * The claim under review, read in one prepared statement mapped onto the entity: its submitter's
 * authIdentifier, its tenant's settings and the DUPLICATE check's two lookups come with it, as the
 * reviewer reads one claim per job and each round trip, and MikroORM's query building and
 * hydration, cost more than the query itself. A claim may duplicate one not rejected that came
 * before it, or was decided before it (a later claim of the same receipt whose image was read
 * first, while this one's was retried), so of two claims of one receipt the one decided second is
 * the duplicate, never both or neither. A lookup runs only when the claim has what it compares
 * (conditions on `r` alone are checked before any row is read): a busy merchant has many claims
 * of one date and total, and a claim that could not be read is never compared.
 */
export async function readClaimUnderReview(
  em: EntityManager,
  tenantId: string,
  receiptId: string,
): Promise<ClaimUnderReview | undefined> {
  const [row] = await queryPrepared<ClaimRow>(em, 'read-claim-under-review', READ_CLAIM_UNDER_REVIEW, [
    receiptId,
    tenantId,
  ]);
  if (!row) return undefined;
  return {
    receipt: em.map(Receipt, row),
    submitter: row.submitter_auth_identifier,
    tenant: { id: tenantId, configuration: row.tenant_configuration },
    sameImageAs: row.same_image_as,
    similarImage:
      row.similar_image_as === null
        ? null
        : { receiptId: row.similar_image_as, distance: Number(row.similar_image_distance) },
    sameDetailsAs: row.same_details_as,
    sameClaimAs: row.same_claim_as,
  };
}

const EARLIER_CLAIM = `d.tenant_id = r.tenant_id and d.status <> 'REJECTED' and d.id <> r.id
    and (d.created_at < r.created_at or (d.created_at = r.created_at and d.id < r.id) or d.paramount_review_id is not null)`;

/**
 * The date and total two claims of one receipt share, which the details' check compares too. A
 * picture alike is a duplicate only when the date and total read of both agree: a shop's
 * receipts of one layout and length hash alike (on SROIE's scans, 36 pairs of different receipts of
 * one shop were within the threshold, none of them of one date and total). A claim missing either
 * is not rejected on its picture alone: without a total or date it goes to a person anyway
 * (INSUFFICIENT_DATA).
 */
const SAME_DATE_AND_TOTAL = `d.service_date = r.service_date and d.total = r.total`;

/** Looked up by barcode, then by transaction id: one index each, where an OR of the two would use neither. */
const SAME_DETAILS = `r.parse_error is null and r.merchant_name is not null and r.service_date is not null and r.total is not null
             and ${EARLIER_CLAIM} and ${SAME_DATE_AND_TOTAL}
             and lower(trim(d.merchant_name)) = lower(trim(r.merchant_name))`;

/**
 * Exported for its plan's test. `(…) is true` is a condition no index serves, so the claim is found
 * by its primary key alone, whatever the statistics: a prepared statement's generic plan made
 * while the table had none (a new database, autovacuum behind) read the claim through a tenant
 * index, every claim of the tenant for each review.
 */
export const READ_CLAIM_UNDER_REVIEW = `select r.*, m.auth_identifier as submitter_auth_identifier, t.configuration as tenant_configuration,
       (select d.id from receipt d
         where r.parse_error is null and r.image_hash is not null and ${EARLIER_CLAIM} and d.image_hash = r.image_hash
         limit 1) as same_image_as,
       nearest.id as similar_image_as, nearest.distance as similar_image_distance,
       coalesce(
         (select d.id from receipt d
           where ${SAME_DETAILS} and r.barcode is not null and d.barcode = r.barcode
           limit 1),
         (select d.id from receipt d
           where ${SAME_DETAILS} and r.transaction_id is not null and d.transaction_id = r.transaction_id
           limit 1)) as same_details_as,
       (select d.id from receipt d
         where ${SAME_DETAILS} and d.submitter_id = r.submitter_id
           and d.service_time is not distinct from r.service_time
           and (d.barcode is null or r.barcode is null or d.barcode = r.barcode)
           and (d.transaction_id is null or r.transaction_id is null or d.transaction_id = r.transaction_id)
         limit 1) as same_claim_as
       from receipt r join member m on m.id = r.submitter_id join tenant t on t.id = r.tenant_id
       left join lateral (select d.id, bit_count(d.perceptual_hash # r.perceptual_hash) as distance from receipt d
         where r.parse_error is null and r.perceptual_hash is not null and d.perceptual_hash is not null and ${EARLIER_CLAIM}
           and bit_count(d.perceptual_hash # r.perceptual_hash) <= ${DUPLICATE_IMAGE_MAX_DISTANCE}
           and ${SAME_DATE_AND_TOTAL}
         order by distance, d.created_at, d.id
         limit 1) nearest on true
      where r.id = ? and (r.tenant_id = ?) is true`;

type ClaimRow = Record<string, unknown> & {
  submitter_auth_identifier: string;
  tenant_configuration: TenantConfiguration;
  same_image_as: string | null;
  similar_image_as: string | null;
  similar_image_distance: number | string | null;
  same_details_as: string | null;
  same_claim_as: string | null;
};

interface Claim extends ClaimUnderReview {
  em: EntityManager;
  deps: ReviewerDependencies;
  settings: ReviewSettings;
  now: Date;
}

/** A check's finding: a decision ends the review; undefined lets the next check run. */
type Finding = { verdict: ReviewVerdict; reason: ReviewReason; detail: string } | { passed: string } | undefined;

/**
 * The automated decision on a parsed claim (docs/receipts.md#automated-checks): the checks in their
 * documented order, the first that decides ending the review, each recorded with what it found;
 * then the rule engine, spot checks, else AUTHORIZE VALID_DATA. Repeatable: the spot check draws
 * from the receipt's id, and duplicates and limits count only claims made before this one.
 */
export async function decideAutomatically(
  em: EntityManager,
  deps: ReviewerDependencies,
  claimed: ClaimUnderReview,
  now = new Date(),
): Promise<AutomatedDecision> {
  const claim: Claim = { ...claimed, em, deps, settings: reviewSettings(claimed.tenant.configuration), now };
  const { receipt } = claim;
  const checks: CheckOutcome[] = [];
  const steps: [string, (claim: Claim) => Promise<Finding> | Finding][] = [
    ['DUPLICATE', duplicate],
    ['INVALID_DATE', invalidDate],
    ['INVALID_MERCHANT', invalidMerchant],
    ['INVALID_VENUE', invalidVenue],
    ['FORMAT_SUBMISSION_LIMIT_EXCEEDED', formatLimit],
    ['MERCHANT_SUBMISSION_LIMIT_EXCEEDED', merchantLimit],
    ['INSUFFICIENT_DATA', insufficientData],
  ];
  for (const [check, run] of steps) {
    const finding = await run(claim);
    if (finding && 'verdict' in finding) {
      checks.push({ check, passed: false, detail: finding.detail });
      return { verdict: finding.verdict, reason: finding.reason, checks, ruleSetId: null, ruleEngineResult: null };
    }
    checks.push({ check, passed: true, ...(finding ? { detail: finding.passed } : {}) });
  }

  const engine = await ruleEngine(claim);
  checks.push({ check: 'RULE_ENGINE', passed: engine.decision === undefined, detail: engine.detail });
  const ruleSet = { ruleSetId: engine.ruleSetId, ruleEngineResult: engine.result };
  if (engine.decision) return { ...engine.decision, checks, ...ruleSet };

  if (spotCheckDraw(receipt.id) < claim.settings.spotCheckRate) {
    checks.push({
      check: 'SPOT_CHECK',
      passed: false,
      detail: `drawn for a spot check at rate ${claim.settings.spotCheckRate}`,
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
function duplicate({ sameImageAs, similarImage, sameDetailsAs, sameClaimAs }: Claim): Finding {
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
function invalidDate({ receipt, settings, now }: Claim): Finding {
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
function invalidMerchant({ receipt, settings }: Claim): Finding {
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
async function invalidVenue(claim: Claim): Promise<Finding> {
  if (!claim.settings.requireVenue) return undefined;
  const venues = await claim.deps.venues.forTenant(claim.tenant.id);
  const matches = venueMatchesOperator(venues);
  const transaction = {
    locationIdentifier: claim.receipt.locationIdentifier,
    submissionPosition: claim.receipt.submissionPosition,
  };
  for (const venueId of venues.keys())
    if (matches.evaluate(transaction, venueId)) return { passed: `made at venue ${venueId}` };
  return {
    verdict: 'REJECT',
    reason: 'INVALID_VENUE',
    detail: 'neither the location identifier nor the submission position is at one of the venues',
  };
}

/** Claims the submitter made earlier the same day (by the receipt's zone, as INVALID_DATE counts days), not rejected. */
async function claimsToday(claim: Claim, narrowing: Record<string, unknown>): Promise<number> {
  const { createdAt, timezone } = claim.receipt;
  const dayStart = zonedInstant(zonedDate(createdAt, timezone), '00:00:00', timezone);
  const where = {
    tenant: claim.tenant.id,
    submitter: claim.receipt.submitter.id,
    status: { $ne: 'REJECTED' },
    createdAt: { $gte: dayStart, $lt: createdAt },
    ...narrowing,
  };
  return claim.em.count(Receipt, where as never);
}

async function formatLimit(claim: Claim): Promise<Finding> {
  const limit = claim.settings.limits.perFormat;
  if (limit === undefined || !claim.receipt.formatSlug) return undefined;
  const made = await claimsToday(claim, { formatSlug: claim.receipt.formatSlug });
  return made >= limit
    ? {
        verdict: 'REJECT',
        reason: 'FORMAT_SUBMISSION_LIMIT_EXCEEDED',
        detail: `${made} claims of format ${claim.receipt.formatSlug} today; the limit is ${limit}`,
      }
    : undefined;
}

async function merchantLimit(claim: Claim): Promise<Finding> {
  const limit = claim.settings.limits.perMerchant;
  if (limit === undefined || !claim.receipt.merchantName) return undefined;
  const made = await claimsToday(claim, { merchantName: { $ilike: claim.receipt.merchantName.trim() } });
  return made >= limit
    ? {
        verdict: 'REJECT',
        reason: 'MERCHANT_SUBMISSION_LIMIT_EXCEEDED',
        detail: `${made} claims at ${claim.receipt.merchantName} today; the limit is ${limit}`,
      }
    : undefined;
}

/** "no total or date, or confidence under review.minConfidence: ABSTAIN": the page's, the total's or the date's. */
function insufficientData({ receipt, settings }: Claim): Finding {
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
async function ruleEngine(claim: Claim): Promise<EngineOutcome> {
  const transaction = receiptTransaction(claim.receipt, claim.submitter);
  const set = await claim.deps.ruleEngine.select(claim.tenant.id, transaction);
  if (!set) return { ruleSetId: null, result: null, detail: 'no active rule set applies' };
  let result: RuleEngineResult;
  try {
    result = await claim.deps.ruleEngine.run(claim.tenant.id, set, transaction);
  } catch (error) {
    if (!(error instanceof RuleEngineError)) throw error;
    return {
      decision: { verdict: 'ABSTAIN', reason: 'RULE_ENGINE_THREW_ERROR' },
      ruleSetId: set.id,
      result: null,
      detail: error.message,
    };
  }
  const verdict = result.result[VERDICT_KEY];
  if (verdict === 'REJECT' || verdict === 'ABSTAIN') {
    const reason = result.result[REASON_KEY];
    const known = (REVIEW_REASONS as readonly unknown[]).includes(reason) ? (reason as ReviewReason) : 'OTHER';
    return {
      decision: { verdict, reason: known },
      ruleSetId: set.id,
      result,
      detail: `rule set ${set.id} answered ${verdict}`,
    };
  }
  const basketIds = new Set(set.rules.filter((rule) => rule.type === 'BASKET').map((rule) => rule.id));
  const baskets = result.rules.filter((rule) => basketIds.has(rule.id));
  if (baskets.length > 0 && baskets.every((rule) => rule.outcome === 'failure')) {
    return {
      decision: { verdict: 'REJECT', reason: 'NO_QUALIFYING_PRODUCTS' },
      ruleSetId: set.id,
      result,
      detail: `no BASKET rule of rule set ${set.id} matched`,
    };
  }
  return { ruleSetId: set.id, result, detail: `rule set ${set.id} ran` };
}

/** A fixed draw in [0, 1) per receipt, so running the review again decides the same. */
export function spotCheckDraw(receiptId: string): number {
  return createHash('sha256').update(receiptId).digest().readUInt32BE(0) / 2 ** 32;
}
