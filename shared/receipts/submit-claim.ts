import type { Principal } from '../platform/auth/principal.js';
import type { EntityManager } from '../platform/db/orm.js';
import { fieldError, NotFoundError, UnauthorizedError } from '../platform/errors/app-errors.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { referencesMember, unknownMember, type MemberReference } from '../users/lookup-user.js';
import type { SubjectDirectory } from '../users/subject-directory.js';
import type { User } from '../users/user.entity.js';
import { createClaim, type ClaimDependencies, type ImageClaim, type PreparsedClaim } from './claim-service.js';
import { PARSED_FIELDS, type ParsedClaim } from './parsed-claim.js';
import type { ReceiptMetadata, SubmissionPosition } from './receipt.entity.js';
import type { ClaimedView } from './receipt-views.js';
import { claimAsStored } from './receipt-reads.js';

interface ClaimRequestCommon {
  submitter?: MemberReference;
  submissionPosition?: SubmissionPosition;
  metadata?: ReceiptMetadata;
}

/** A POST /receipts body, as its schema (api/receipts/schema.ts) admits it. */
export type ClaimRequest =
  | (ClaimRequestCommon & { useParser: true; pictureUrl: string })
  | (ClaimRequestCommon & {
      useParser: false;
      pictureUrl?: string;
      ocrConfidence: number;
      lineItems: ParsedClaim['lineItems'];
      formatSlug?: string;
      [field: string]: unknown;
    });

/**
 * POST /receipts: who claims, the claim made from the body, stored and queued; answered with the
 * automated decision when it came in time, or the claim as it stands.
 */
export async function submitClaim(
  em: EntityManager,
  deps: ClaimDependencies & { subjects: SubjectDirectory },
  tenant: Tenant,
  principal: Principal,
  body: ClaimRequest,
  reservedId?: string,
): Promise<ClaimedView> {
  const submitter = await claimant(deps.subjects, tenant.id, principal, body);
  const common = { submissionPosition: body.submissionPosition, metadata: body.metadata };
  const claim: ImageClaim | PreparsedClaim = body.useParser
    ? { useParser: true, pictureUrl: body.pictureUrl, ...common }
    : { useParser: false, pictureUrl: body.pictureUrl, ...common, parsed: preparsed(body) };
  const { receiptId, decided } = await createClaim(em, deps, tenant, submitter, claim, reservedId);
  return decided ?? (await claimAsStored(em.fork(), tenant.id, receiptId));
}

/**
 * Who claims (docs/receipts.md#claims): a user claims for themself, with an image
 * only; an admin names the claiming member in `submitter`.
 */
async function claimant(
  subjects: SubjectDirectory,
  tenantId: string,
  principal: Principal,
  body: { useParser: boolean; submitter?: MemberReference },
): Promise<User> {
  // From the member cache: shoppers and tills claim for the same members over and over.
  if (principal.kind === 'user') {
    if (!body.useParser)
      throw new UnauthorizedError('A preparsed claim takes an admin token with the scope admin:receipts');
    const user = await subjects.findReferenced(tenantId, { authIdentifier: principal.authIdentifier });
    if (!user) throw new NotFoundError('No member is registered for this token: register with POST /v1/users');
    if (body.submitter && !referencesMember(body.submitter, user))
      throw fieldError(
        'submitter',
        body.submitter,
        'ownUser',
        'A user token claims for its own user: leave submitter out',
      );
    return user;
  }
  if (!body.submitter)
    throw fieldError('submitter', undefined, 'required', 'With an admin token, submitter names the claiming member');
  return (await subjects.findReferenced(tenantId, body.submitter)) ?? unknownMember(body.submitter);
}

function preparsed(
  body: Record<string, unknown> & { ocrConfidence: number; lineItems: ParsedClaim['lineItems']; formatSlug?: string },
): ParsedClaim {
  const fields = Object.fromEntries(
    PARSED_FIELDS.filter((name) => body[name] !== undefined).map((name) => [name, body[name]]),
  );
  return {
    ocrConfidence: body.ocrConfidence,
    lineItems: body.lineItems,
    fields,
    ...(body.formatSlug !== undefined ? { formatSlug: body.formatSlug } : {}),
  };
}
