import type { AppContext } from '../../shared/context.js';
import { receiptOcrRead } from '../../shared/receipts/receipt-reads.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { admin, OcrReadResource, ReceiptIdParams, tags } from './schema.js';

export function registerGetReceiptOcr(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/receipts/:id/ocr',
    operationId: 'getReceiptOcrRead',
    description:
      "What the OCR engine read off a default-mode claim's image, line by line, each line with its confidence and its box in the image: what the parse was made from, for a reviewer to compare with the picture. A preparsed claim, a claim not read yet or one whose image could not be read has none (404, the message says which); so has a member's claim once the member's personal data is erased.",
    examples: {
      response: {
        engine: 'tesseract.js',
        confidence: 0.91,
        width: 560,
        height: 780,
        readAt: '2026-02-01T12:00:02.000Z',
        lines: [
          { text: 'ACME COFFEE', confidence: 0.95, box: { x0: 180, y0: 48, x1: 380, y1: 80 } },
          { text: 'ESPRESSO BEANS 1KG 37.80', confidence: 0.89, box: { x0: 30, y0: 210, x1: 530, y1: 238 } },
        ],
      },
    },
    summary: 'Read what OCR read off a receipt',
    tags,
    access: admin,
    params: ReceiptIdParams,
    responses: { 200: { description: 'the OCR read', data: OcrReadResource } },
    errors: [404],
    handler: ({ params }, c) => receiptOcrRead(entityManager(c), c.var.tenant.id, params.id),
  });
}
