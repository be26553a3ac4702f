import type { AppContext } from '../../shared/context.js';
import { Reward } from '../../shared/rewards/reward.entity.js';
import { createReward, findReward, rewardView, updateReward } from '../../shared/rewards/reward-service.js';
import type { App } from '../app-env.js';
import { collectionRoutes } from '../routes/collection-routes.js';
import { registerAddCodes } from './add-codes.js';
import { registerCodeSummary } from './code-summary.js';
import { registerListRewards } from './list-rewards.js';
import {
  access,
  CreateRewardBody,
  REWARD_EXAMPLE,
  RewardIdParams,
  RewardResource,
  tags,
  UpdateRewardBody,
} from './schema.js';

/** `/v1/rewards` (docs/rewards.md#rewards and #codes): the catalogue and its code pools. */
export function registerRewardRoutes(app: App, context: AppContext): void {
  const rewards = collectionRoutes(app, context, {
    path: '/v1/rewards',
    noun: 'reward',
    entity: Reward,
    resource: RewardResource,
    view: rewardView,
    example: REWARD_EXAMPLE,
    params: RewardIdParams,
    tags,
    access,
  });
  const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...request } = REWARD_EXAMPLE;
  const now = () => new Date(context.clock.now());
  rewards.create({
    summary: 'Add a reward to the catalogue',
    description:
      'A reward is something a member can obtain: bought with points (`POST /v1/purchases`) or granted by a VOUCHER reaction. A `VOUCHER` reward puts a voucher in the wallet, whose code comes from the pool uploaded to the reward (`POST /v1/rewards/{id}/codes`) or, without one, is generated. Fields left out take their defaults; `availableUntil` must be after `availableFrom`.',
    body: CreateRewardBody,
    request,
    errors: [409, 422],
    create: (deps, em, by, input, id) => createReward(deps, em, by, input, now(), id),
  });
  // A member's token lists what the member can buy now, an admin token the catalogue.
  registerListRewards(app, context);
  rewards.get({ description: 'One reward by its id; `stock` is what is left now.', find: findReward });
  rewards.update({
    description:
      "Changes the fields given; the others keep their values, and `null` clears a field that may be empty. `type` cannot be changed. `availableUntil` must still be after `availableFrom` once the change is made. `discounts`, when given, replace the reward's discounts.",
    body: UpdateRewardBody,
    examples: {
      request: { price: 250, stock: 800 },
      response: { ...REWARD_EXAMPLE, price: 250, stock: 800, updatedAt: '2026-01-12T10:30:00.000Z' },
    },
    update: (deps, em, by, id, changes) => updateReward(deps, em, by, id, changes, now()),
  });
  registerAddCodes(app, context);
  registerCodeSummary(app, context);
}
