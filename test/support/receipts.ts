import { randomUUID } from 'node:crypto';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { User } from '../../shared/users/user.entity.js';
import type { Harness, TestTenant } from './harness.js';

/**
 * A claim stored directly, as no request makes it: parsed from an image, PENDING, dated yesterday,
 * its next step (reading, review) not queued. `overrides` change any column; the submitter is the
 * tenant's member `submitter`.
 */
export async function storeClaim(
  harness: Harness,
  tenant: TestTenant,
  overrides: Partial<Receipt> = {},
  submitter = 'shopper',
): Promise<Receipt> {
  const em = harness.context.orm.em.fork();
  const member = await em.findOneOrFail(User, { tenant: tenant.id, authIdentifier: submitter });
  const receipt = em.create(Receipt, {
    id: randomUUID(),
    tenant: tenant.id,
    submitter: member,
    status: 'PENDING',
    statusVersion: 0,
    useParser: true,
    parsedAt: new Date(),
    parseError: null,
    pictureUrl: 'https://receipts.example/claim.png',
    imageHash: null,
    ocrConfidence: 0.9,
    fieldConfidences: {},
    timezone: 'UTC',
    serviceDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    serviceTime: null,
    servedAt: null,
    total: 12.5,
    subtotal: null,
    correctedTotal: null,
    barcode: null,
    transactionId: null,
    lineItems: [],
    locationIdentifier: null,
    locationAddress: null,
    submissionPosition: null,
    formatSlug: null,
    merchantName: 'Corner Shop',
    language: null,
    metadata: null,
    paramountReviewId: null,
    createdAt: new Date(),
    ...overrides,
  } as never) as Receipt;
  await em.flush();
  return receipt;
}
