import type { AppContext } from '../../shared/context.js';
import { findReward, rewardView } from '../../shared/rewards/reward-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, REWARD_EXAMPLE, RewardIdParams, RewardResource, tags } from './schema.js';

export function registerGetReward(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/rewards/:id',
    operationId: 'getReward',
    description: 'One reward by its id; `stock` is what is left now.',
    examples: { response: REWARD_EXAMPLE },
    summary: 'Read a reward',
    tags,
    access,
    params: RewardIdParams,
    responses: { 200: { description: 'the reward', data: RewardResource } },
    errors: [404],
    handler: async ({ params }, c) => rewardView(await findReward(entityManager(c), c.var.tenant.id, params.id)),
  });
}
