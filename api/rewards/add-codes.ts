import type { AppContext } from '../../shared/context.js';
import { addPoolCodes } from '../../shared/rewards/code-pool.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, AddCodesBody, CodesAdded, RewardIdParams, tags } from './schema.js';

/**
 * 10,000 codes of 128 characters, each character up to 4 bytes in UTF-8, with their quotes and
 * commas, come to 5.2 MB: more than the 1 MB of other bodies, so the largest upload the body schema
 * admits fits. Nothing reads the body before the admin token is checked.
 */
export const CODE_UPLOAD_BODY_LIMIT = 6 * 1024 * 1024;

export function registerAddCodes(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/rewards/:id/codes',
    operationId: 'addRewardCodes',
    description:
      "Uploads codes to a `VOUCHER` reward's pool, up to 10,000 a request (a body of up to 6 MB). From then on each voucher of the reward takes a code from the pool, and an empty pool refuses purchases with 409 `VoucherCodePoolExhaustedError`. A code is kept as given and matched in any case and with any dashes or spaces, so a code already in any of the tenant's pools, or repeated in the request, in those or others, is a duplicate: left out and counted. Codes are kept sealed, never in the clear. A reward of another type is 400.",
    examples: {
      request: { codes: ['ESP-7K2M-QX9A', 'ESP-3HRT-8WPE', 'ESP-3HRT-8WPE'] },
      response: { added: 2, duplicates: 1 },
    },
    summary: "Add codes to a reward's pool",
    tags,
    access,
    bodyLimit: CODE_UPLOAD_BODY_LIMIT,
    idempotency: {},
    params: RewardIdParams,
    body: AddCodesBody,
    responses: { 201: { description: 'how many were added and how many were duplicates', data: CodesAdded } },
    errors: [404, 409, 422],
    handler: async ({ params, body }, c) =>
      addPoolCodes(context, entityManager(c), changedBy(c), params.id, body.codes, new Date(context.clock.now())),
  });
}
