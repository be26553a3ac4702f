import { Type } from 'typebox';
import { PLATFORM_TOKEN_ISSUER } from '../../shared/platform/auth/admin-token.js';
import type { Principal } from '../../shared/platform/auth/principal.js';
import type { AppContext } from '../../shared/context.js';
import type { EntityManager } from '../../shared/platform/db/orm.js';
import { findTenantRecord } from '../../shared/platform/db/tenant-record.js';
import { fieldError, NotFoundError, UnauthorizedError } from '../../shared/platform/errors/app-errors.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import { createClaim, type ImageClaim, type PreparsedClaim } from '../../shared/receipts/claim-service.js';
import { PARSED_FIELDS, type ParsedClaim } from '../../shared/receipts/parsed-claim.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { claimedView, receiptListItemView, receiptView, reviewView, type ClaimedView } from '../../shared/receipts/receipt-views.js';
import { Review } from '../../shared/receipts/review.entity.js';
import { reviewDependencies, reviewManually } from '../../shared/receipts/review-service.js';
import type { SubjectDirectory } from '../../shared/users/subject-directory.js';
import { unknownSubmitter } from '../../shared/users/lookup-user.js';
import { User } from '../../shared/users/user.entity.js';
import { entityManager, type App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { createsRecord, createsRecordOf, idempotent } from '../middleware/idempotency.js';
import { describe } from '../openapi/describe.js';
import { jsonBody } from '../validation/json-body.js';
import { ClaimBody, ClaimedReceipt, ReceiptIdParameter, ReceiptListItem, ReceiptResource, ReviewBody, ReviewResource } from './schema.js';

const RECEIPT_LIST: ListSpec = {
  resource: 'receipt',
  defaultSort: 'createdAt',
  fields: {
    status: { type: 'string', filterable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    updatedAt: { type: 'datetime', filterable: true, sortable: true },
    notionallyServedAt: { type: 'datetime', path: 'servedAt', filterable: true, sortable: true },
    total: { type: 'number', filterable: true, sortable: true },
    subtotal: { type: 'number', filterable: true, sortable: true },
    serviceDate: { type: 'string', filterable: true },
    merchantName: { type: 'string', filterable: true },
    formatSlug: { type: 'string', filterable: true },
    barcode: { type: 'string', filterable: true },
    'submitter.authIdentifier': { type: 'string', filterable: true },
  },
};

const admin = { admin: 'admin:receipts' } as const;
const tags = ['Receipts'];

/** The receipts of receipts-interface.md: claims, their automated and manual reviews. */
export function registerReceiptRoutes(app: App, context: AppContext): void {
  const claims = { queues: context.queues, products: context.products, decisions: context.decisions, decisionWaitMs: context.config.receiptDecisionWaitMs };
  const reviews = reviewDependencies(context);
  app.post(
    '/v1/receipts',
    describe({
      summary: 'Claim a receipt: an image to read (answered at once) or preparsed data (answered with the automated decision when it comes in time)',
      tags,
      access: { admin: 'admin:receipts', user: true },
      body: ClaimBody,
      responses: { 201: { description: 'the claim; paramountReview null until it is reviewed', data: ClaimedReceipt } },
      errors: [404, 422],
    }),
    authorize(context, { admin: 'admin:receipts', user: true }),
    // A recovered claim answers as it stands now, decided or not; its review jobs are queued again by the recovery sweep.
    idempotent(
      context,
      createsRecord(async (c, id) => {
        const em = entityManager(c);
        return (await em.count(Receipt, { tenant: c.var.tenant.id, id })) ? c.json({ status: 'success', data: await claimAsStored(em, id) }, 201) : undefined;
      }),
    ),
    jsonBody(ClaimBody),
    async (c) => {
      const body = c.req.valid('json');
      const em = entityManager(c);
      const submitter = await claimant(context.subjects, c.var.tenant.id, c.var.principal!, body);
      const common = { submissionPosition: body.submissionPosition, metadata: body.metadata };
      const claim: ImageClaim | PreparsedClaim = body.useParser
        ? { useParser: true, pictureUrl: body.pictureUrl, ...common }
        : { useParser: false, pictureUrl: body.pictureUrl, ...common, parsed: preparsed(body) };
      const { receiptId, decided } = await createClaim(em, claims, c.var.tenant, submitter, claim, c.var.reservedId);
      return c.json({ status: 'success', data: decided ?? (await claimAsStored(em.fork(), receiptId)) }, 201);
    },
  );
  app.get(
    '/v1/receipts',
    describe({ summary: 'List receipts', tags, access: admin, parameters: listParameters(RECEIPT_LIST), responses: { 200: { description: 'a page of receipts', data: Type.Array(ReceiptListItem) } }, errors: [400] }),
    authorize(context, admin),
    (c) => listResponse(c, Receipt, RECEIPT_LIST, receiptListItemView),
  );
  app.get(
    '/v1/receipts/:id',
    describe({ summary: 'Read a receipt', tags, access: admin, parameters: [ReceiptIdParameter], responses: { 200: { description: 'the receipt', data: ReceiptResource } }, errors: [404] }),
    authorize(context, admin),
    async (c) => {
      const { receipt, paramountReview } = await readReceipt(entityManager(c), c.var.tenant.id, c.req.param('id'));
      return c.json({ status: 'success', data: receiptView(receipt, paramountReview, (receipt.submitter as User).authIdentifier) });
    },
  );
  app.post(
    '/v1/receipts/:id/reviews',
    describe({
      summary: 'Review a receipt: AUTHORIZE or REJECT sets its status; ABSTAIN is recorded and changes nothing',
      tags,
      access: admin,
      parameters: [ReceiptIdParameter],
      body: ReviewBody,
      responses: { 201: { description: 'the review', data: ReviewResource } },
      errors: [404, 422],
    }),
    authorize(context, admin),
    idempotent(context, createsRecordOf(Review, reviewView)),
    jsonBody(ReviewBody),
    async (c) => {
      const principal = c.var.principal as Extract<Principal, { kind: 'admin' }>;
      const review = await reviewManually(reviews, c.var.tenant.id, c.req.param('id'), { authIssuer: PLATFORM_TOKEN_ISSUER, authIdentifier: principal.subject }, c.req.valid('json'), c.var.reservedId);
      return c.json({ status: 'success', data: reviewView(review) }, 201);
    },
  );
  app.get(
    '/v1/receipts/:id/reviews',
    describe({ summary: "A receipt's reviews, oldest first", tags, access: admin, parameters: [ReceiptIdParameter], responses: { 200: { description: 'the reviews', data: Type.Array(ReviewResource) } }, errors: [404] }),
    authorize(context, admin),
    async (c) => {
      const em = entityManager(c);
      const { receipt } = await readReceipt(em, c.var.tenant.id, c.req.param('id'));
      const list = await em.find(Review, { receipt: receipt.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
      return c.json({ status: 'success', data: list.map(reviewView) });
    },
  );
}

/**
 * Who claims (receipts-interface.md, Authentication 4): a user claims for themself, with an image
 * only; an admin names the claiming member in `submitter`.
 */
async function claimant(subjects: SubjectDirectory, tenantId: string, principal: Principal, body: { useParser: boolean; submitter?: { authIdentifier: string } }): Promise<User> {
  // From the member cache: shoppers and tills claim for the same members over and over.
  if (principal.kind === 'user') {
    if (!body.useParser) throw new UnauthorizedError('A preparsed claim takes an admin token with the scope admin:receipts');
    if (body.submitter && body.submitter.authIdentifier !== principal.authIdentifier) throw fieldError('submitter', body.submitter, 'ownUser', 'A user token claims for its own user: leave submitter out');
    const user = await subjects.findByAuthIdentifier(tenantId, principal.authIdentifier);
    if (!user) throw new NotFoundError('No member is registered for this token: register with POST /v1/users');
    return user;
  }
  if (!body.submitter) throw fieldError('submitter', undefined, 'required', 'With an admin token, submitter names the claiming member');
  return (await subjects.findByAuthIdentifier(tenantId, body.submitter.authIdentifier)) ?? unknownSubmitter(body.submitter.authIdentifier);
}

function preparsed(body: Record<string, unknown> & { ocrConfidence: number; lineItems: ParsedClaim['lineItems']; formatSlug?: string }): ParsedClaim {
  const fields = Object.fromEntries(PARSED_FIELDS.filter((name) => body[name] !== undefined).map((name) => [name, body[name]]));
  return { ocrConfidence: body.ocrConfidence, lineItems: body.lineItems, fields, ...(body.formatSlug !== undefined ? { formatSlug: body.formatSlug } : {}) };
}

/** A claim's answer when no decision came with the wait: its status and paramount review as stored now. */
async function claimAsStored(em: EntityManager, receiptId: string): Promise<ClaimedView> {
  const receipt = await em.findOneOrFail(Receipt, { id: receiptId }, { fields: ['status', 'paramountReviewId'] });
  return claimedView(receipt, await paramountReviewOf(em, receipt));
}

async function readReceipt(em: EntityManager, tenantId: string, id: string): Promise<{ receipt: Receipt; paramountReview: Review | null }> {
  const receipt = await findTenantRecord(em, Receipt, tenantId, id, 'receipt', ['submitter']);
  return { receipt, paramountReview: await paramountReviewOf(em, receipt) };
}

function paramountReviewOf(em: EntityManager, receipt: Pick<Receipt, 'paramountReviewId'>): Promise<Review | null> {
  return receipt.paramountReviewId ? em.findOne(Review, { id: receipt.paramountReviewId }) : Promise.resolve(null);
}
