import type { EntityManager } from '../platform/db/orm.js';
import { queryPrepared } from '../platform/db/prepared-statements.js';
import type { Tenant, TenantConfiguration } from '../tenants/tenant.entity.js';
import { Receipt } from './receipt.entity.js';
import { DUPLICATE_IMAGE_MAX_DISTANCE } from './similar-image.js';

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
