import type { AppContext } from '../../shared/context.js';
import { readReceiptView } from '../../shared/receipts/receipt-reads.js';
import { entityManager, type App } from '../app-env.js';
import { PRODUCT_EXAMPLE } from '../products/schema.js';
import { defineRoute } from '../routes/define-route.js';
import { admin, ReceiptIdParams, ReceiptResource, REVIEW_EXAMPLE, RECEIPT_ID_EXAMPLE, tags } from './schema.js';

export function registerGetReceipt(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/receipts/:id',
    operationId: 'getReceipt',
    description:
      'One receipt with everything read from it and its deciding review (`paramountReview`, null until it is reviewed).',
    examples: {
      response: {
        id: RECEIPT_ID_EXAMPLE,
        status: 'AUTHORIZED',
        paramountReview: REVIEW_EXAMPLE,
        createdAt: '2026-02-01T12:00:00.000Z',
        updatedAt: '2026-02-02T09:00:00.000Z',
        submitter: { authIdentifier: 'member-17' },
        ocrConfidence: '0.94',
        timezone: 'Europe/Paris',
        serviceDate: '2026-02-01',
        serviceTime: '11:58',
        servedAt: '2026-02-01T10:58:00.000Z',
        total: 24.5,
        subtotal: 35.42,
        correctedTotal: 42.5,
        currency: 'EUR',
        barcode: null,
        transactionId: 'T-20260201-0042',
        lineItems: [
          {
            quantity: 2,
            description: 'ESPRESSO BEANS 1KG',
            totalPrice: 37.8,
            productId: PRODUCT_EXAMPLE.id,
            confidence: 0.91,
          },
        ],
        pictureUrl: 'https://images.example.org/receipts/0042.jpg',
        locationIdentifier: 'STORE-12',
        locationAddress: '1 Main Street',
        submissionPosition: null,
        formatSlug: 'acme-till',
        merchantName: 'Acme Coffee',
        merchantLegalName: 'Acme Coffee Roasters Ltd',
        language: 'en',
        metadata: { source: 'mobile-app', campaignId: 'spring-2026' },
      },
    },
    summary: 'Read a receipt',
    tags,
    access: admin,
    params: ReceiptIdParams,
    responses: { 200: { description: 'the receipt', data: ReceiptResource } },
    errors: [404],
    handler: ({ params }, c) => readReceiptView(entityManager(c), c.var.tenant.id, params.id),
  });
}
