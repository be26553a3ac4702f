import type { AppContext } from '../../shared/context.js';
import { Reward } from '../../shared/rewards/reward.entity.js';
import { createReward, rewardView } from '../../shared/rewards/reward-service.js';
import { changedBy, entityManager, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { access, CreateRewardBody, REWARD_EXAMPLE, RewardResource, tags } from './schema.js';

export function registerCreateReward(app: App, context: AppContext): void {
  const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...request } = REWARD_EXAMPLE;
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/rewards',
    operationId: 'createReward',
    description:
      'A reward is something a member can obtain: bought with points (`POST /v1/purchases`) or granted by a VOUCHER reaction. A `VOUCHER` reward puts a voucher in the wallet, whose code comes from the pool uploaded to the reward (`POST /v1/rewards/{id}/codes`) or, without one, is generated. Fields left out take their defaults; `availableUntil` must be after `availableFrom`.',
    examples: { request, response: REWARD_EXAMPLE },
    summary: 'Add a reward to the catalogue',
    tags,
    access,
    idempotency: createsRecordOf(Reward, rewardView),
    body: CreateRewardBody,
    responses: { 201: { description: 'created', data: RewardResource } },
    errors: [409, 422],
    handler: async ({ body }, c) =>
      rewardView(
        await createReward(
          context,
          entityManager(c),
          changedBy(c),
          body,
          new Date(context.clock.now()),
          c.var.reservedId,
        ),
      ),
  });
}
