import { TIMESTAMPS } from '../../shared/platform/validation/timestamps.js';
import { Type } from 'typebox';
import { TIMESTAMP_FIELDS, type ListSpec } from '../../shared/platform/lists/list-spec.js';
import { MAX_AMOUNT, PARSED_FIELDS } from '../../shared/receipts/parsed-claim.js';
import { ReviewResource } from '../../shared/receipts/receipt-views.js';
import { RECEIPT_STATUSES, REVIEW_REASONS, REVIEW_VERDICTS } from '../../shared/rules/review-enums.js';
import { uuidPath } from '../routes/request-input.js';
import { literalUnion } from '../../shared/platform/validation/literal-union.js';
import { MemberReferenceBody } from '../users/schema.js';

const Confidence = Type.Number({
  minimum: 0,
  maximum: 1,
  description: 'How sure the reading is, from 0 to 1',
});

const Submitter = Type.Object(
  { authIdentifier: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);
/** Whom an admin claims for; a receipt shows its submitter's `authIdentifier` (Submitter). */
const ClaimSubmitter = MemberReferenceBody(
  'ClaimSubmitter',
  "The member the receipt is claimed for, required with an admin token; with a user token, left out or the token's own member",
);
const SubmissionPosition = Type.Object(
  { longitude: Type.Number({ minimum: -180, maximum: 180 }), latitude: Type.Number({ minimum: -90, maximum: 90 }) },
  { additionalProperties: false },
);
const Metadata = Type.Object(
  {
    source: Type.String({ minLength: 1, maxLength: 128 }),
    campaignId: Type.Optional(Type.String({ maxLength: 128 })),
    key: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);
const PictureUrl = Type.String({ format: 'uri', maxLength: 2048 });

export const LineItem = Type.Object(
  {
    quantity: Type.Optional(Type.Number()),
    description: Type.Optional(Type.String({ maxLength: 512 })),
    identifier: Type.Optional(Type.String({ maxLength: 128 })),
    unit: Type.Optional(Type.String({ maxLength: 32 })),
    unitPrice: Type.Optional(Type.Number()),
    totalPrice: Type.Optional(Type.Number()),
    metadata: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: 20 })),
    productId: Type.Optional(Type.String({ maxLength: 64 })),
    confidence: Type.Optional(Confidence),
  },
  { additionalProperties: false, title: 'ReceiptLineItem' },
);

const ParsedField = Type.Object(
  { value: Type.String({ maxLength: 1024 }), confidence: Confidence },
  { additionalProperties: false },
);

/** Default mode (docs/receipts.md#claims): an image the service reads. */
const ImageClaimBody = Type.Object(
  {
    useParser: Type.Literal(true),
    pictureUrl: PictureUrl,
    submitter: Type.Optional(ClaimSubmitter),
    submissionPosition: Type.Optional(SubmissionPosition),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, title: 'ImageClaim' },
);

/** Preparsed mode (docs/receipts.md#claims): each parsed field a `{value, confidence}`. */
const PreparsedClaimBody = Type.Object(
  {
    useParser: Type.Literal(false),
    ocrConfidence: Confidence,
    lineItems: Type.Array(LineItem, { maxItems: 500 }),
    submitter: Type.Optional(ClaimSubmitter),
    pictureUrl: Type.Optional(PictureUrl),
    ...Object.fromEntries(PARSED_FIELDS.map((name) => [name, Type.Optional(ParsedField)])),
    formatSlug: Type.Optional(Type.String({ maxLength: 128 })),
    submissionPosition: Type.Optional(SubmissionPosition),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, title: 'PreparsedClaim' },
);

export const ClaimBody = Type.Union([ImageClaimBody, PreparsedClaimBody], { title: 'ClaimReceiptBody' });

/** The amounts' currency; in preparsed mode a `currency` that is not three letters is left out, as any unreadable value is. */
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' });

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const CorrectedTotal = Type.Union([Type.Number(), Type.Null()], {
  description:
    'The total a person read off the receipt: that of the last AUTHORIZE or REJECT review that gave one; `total` stays as read',
});

export const ReceiptResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: literalUnion(RECEIPT_STATUSES),
    paramountReview: Nullable(ReviewResource),
    ...TIMESTAMPS,
    submitter: Submitter,
    ocrConfidence: Type.String(),
    timezone: Type.String(),
    serviceDate: Nullable(Type.String()),
    serviceTime: Nullable(Type.String()),
    servedAt: Nullable(Type.String({ format: 'date-time' })),
    total: Nullable(Type.Number()),
    subtotal: Nullable(Type.Number()),
    correctedTotal: CorrectedTotal,
    currency: Nullable(Currency),
    barcode: Nullable(Type.String()),
    transactionId: Nullable(Type.String()),
    lineItems: Type.Array(LineItem),
    pictureUrl: Nullable(Type.String()),
    locationIdentifier: Nullable(Type.String()),
    locationAddress: Nullable(Type.String()),
    submissionPosition: Nullable(SubmissionPosition),
    formatSlug: Nullable(Type.String()),
    merchantName: Nullable(Type.String()),
    merchantLegalName: Nullable(
      Type.String({
        description:
          "The company's legal name (with its legal form: SDN BHD, PTE LTD, SIA…) when the receipt prints it beside the trading name that is `merchantName`; null when the legal name is itself the merchant or none is printed",
      }),
    ),
    language: Nullable(Type.String()),
    metadata: Nullable(Metadata),
  },
  { title: 'Receipt' },
);

export const ReceiptListItem = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    ...TIMESTAMPS,
    status: literalUnion(RECEIPT_STATUSES),
    notionallyServedAt: Nullable(Type.String({ format: 'date-time' })),
    serviceDate: Nullable(Type.String()),
    serviceTime: Nullable(Type.String()),
    ocrConfidence: Type.String(),
    total: Nullable(Type.Number()),
    subtotal: Nullable(Type.Number()),
    correctedTotal: CorrectedTotal,
    currency: Nullable(Currency),
    barcode: Nullable(Type.String()),
  },
  { title: 'ReceiptSummary' },
);

const OcrBox = Type.Object(
  { x0: Type.Number(), y0: Type.Number(), x1: Type.Number(), y1: Type.Number() },
  { description: 'Pixels of the image as read, origin top left', title: 'OcrBox' },
);

/** GET /receipts/{id}/ocr (docs/receipts.md#the-ocr-read): what the engine read, line by line. */
export const OcrReadResource = Type.Object(
  {
    engine: Type.String({ description: 'The OCR engine that read the image' }),
    confidence: Confidence,
    width: Type.Integer({ description: "The image's width in pixels, as the engine read it" }),
    height: Type.Integer({ description: "The image's height in pixels, as the engine read it" }),
    readAt: Type.String({ format: 'date-time' }),
    lines: Type.Array(Type.Object({ text: Type.String(), confidence: Confidence, box: OcrBox }, { title: 'OcrLine' }), {
      description: 'Top to bottom, as the engine read them',
    }),
  },
  { title: 'ReceiptOcrRead' },
);

/** POST /receipts/{id}/reviews (docs/receipts.md#manual-reviews): `{verdict, reason}`; a comment and a corrected total may go with them. */
export const ReviewBody = Type.Object(
  {
    verdict: literalUnion(REVIEW_VERDICTS),
    reason: literalUnion(REVIEW_REASONS),
    comment: Type.Optional(Type.String({ maxLength: 2000 })),
    correctedTotal: Type.Optional(
      Type.Number({
        minimum: 0,
        exclusiveMaximum: MAX_AMOUNT,
        description:
          "The total as the reviewer reads it off the receipt, kept to 4 decimal places; an AUTHORIZE or REJECT makes it the receipt's `correctedTotal`",
      }),
    ),
  },
  { additionalProperties: false, title: 'ReviewReceiptBody' },
);

/** The claim of the examples: made, read, listed and reviewed. */
export const RECEIPT_ID_EXAMPLE = 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b';

export const ReceiptIdParams = uuidPath({ id: { description: "The receipt's id", example: RECEIPT_ID_EXAMPLE } });

export const RECEIPT_LIST: ListSpec = {
  resource: 'receipt',
  defaultSort: 'createdAt',
  fields: {
    // The first field is the filter's example in the OpenAPI document: one whose 'X' is a fair value.
    status: { type: 'string', filterable: true },
    id: { type: 'uuid', filterable: true },
    ...TIMESTAMP_FIELDS,
    notionallyServedAt: { type: 'datetime', path: 'servedAt', filterable: true, sortable: true },
    total: { type: 'number', filterable: true, sortable: true },
    subtotal: { type: 'number', filterable: true, sortable: true },
    correctedTotal: { type: 'number', filterable: true },
    // Shown as a string, as the interface has it, but compared as the number it is (0 to 1).
    ocrConfidence: { type: 'number', filterable: true },
    serviceDate: { type: 'string', filterable: true },
    serviceTime: { type: 'string', filterable: true },
    merchantName: { type: 'string', filterable: true },
    merchantLegalName: { type: 'string', filterable: true },
    formatSlug: { type: 'string', filterable: true },
    barcode: { type: 'string', filterable: true },
    transactionId: { type: 'string', filterable: true },
    locationIdentifier: { type: 'string', filterable: true },
    currency: { type: 'string', filterable: true },
    'submitter.authIdentifier': { type: 'string', filterable: true },
  },
};

/** GET /receipts/{id}/reviews (docs/receipts.md#manual-reviews): one receipt's reviews. */
export const REVIEW_LIST: ListSpec = {
  resource: 'review',
  defaultSort: 'createdAt',
  fields: {
    verdict: { type: 'string', filterable: true },
    id: { type: 'uuid', filterable: true },
    reason: { type: 'string', filterable: true },
    isAutomated: { type: 'boolean', filterable: true },
    createdAt: { type: 'datetime', filterable: true, sortable: true },
    'reviwer.authIdentifier': { type: 'string', path: 'reviewer.authIdentifier', filterable: true },
  },
};

/** Reading and reviewing receipts is for admins; claiming is for members too (claim-receipt.ts). */
export const admin = { admin: 'admin:receipts' } as const;
export const tags = ['Receipts'];

/** A reviewer's review as the examples show it: sent, then in the receipt and among its reviews. */
export const REVIEW_EXAMPLE = {
  id: '4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f',
  verdict: 'AUTHORIZE',
  reason: 'VERIFIED',
  createdAt: '2026-02-02T09:00:00.000Z',
  isAutomated: false,
  reviwer: { authIssuer: 'tally', authIdentifier: 'reviewer@example.org' },
  comment: 'Checked against the till roll: the total was misread',
  correctedTotal: 42.5,
};
