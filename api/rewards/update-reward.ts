import type { AppContext } from '../../shared/context.js';
import { rewardView, updateReward } from '../../shared/rewards/reward-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { access, REWARD_EXAMPLE, RewardIdParams, RewardResource, tags, UpdateRewardBody } from './schema.js';

export function registerUpdateReward(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'patch',
    path: '/v1/rewards/:id',
    operationId: 'updateReward',
    description:
      "Changes the fields given; the others keep their values, and `null` clears a field that may be empty. `type` cannot be changed. `availableUntil` must still be after `availableFrom` once the change is made. `discounts`, when given, replace the reward's discounts.",
    examples: {
      request: { price: 250, stock: 800 },
      response: { ...REWARD_EXAMPLE, price: 250, stock: 800, updatedAt: '2026-01-12T10:30:00.000Z' },
    },
    summary: 'Change a reward',
    tags,
    access,
    params: RewardIdParams,
    body: UpdateRewardBody,
    responses: { 200: { description: 'the changed reward', data: RewardResource } },
    errors: [404],
    handler: async ({ params, body }, c) =>
      rewardView(
        await updateReward(context, entityManager(c), changedBy(c), params.id, body, new Date(context.clock.now())),
      ),
  });
}
