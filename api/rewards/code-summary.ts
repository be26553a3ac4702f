import type { AppContext } from '../../shared/context.js';
import { codeSummary, CodeSummary } from '../../shared/rewards/code-pool.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, RewardIdParams, tags } from './schema.js';

export function registerCodeSummary(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/rewards/:id/codes/summary',
    operationId: 'getRewardCodeSummary',
    description:
      "A reward's codes counted: `total`, those `reserved` by a voucher, and those still `available` in the pool. A reward without a pool counts the codes generated for its vouchers, all reserved.",
    examples: { response: { total: 1000, reserved: 212, available: 788 } },
    summary: "Count a reward's codes",
    tags,
    access,
    params: RewardIdParams,
    responses: { 200: { description: 'the counts', data: CodeSummary } },
    errors: [404],
    handler: ({ params }, c) => codeSummary(entityManager(c), c.var.tenant.id, params.id),
  });
}
