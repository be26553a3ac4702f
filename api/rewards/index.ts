import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { registerAddCodes } from './add-codes.js';
import { registerCodeSummary } from './code-summary.js';
import { registerCreateReward } from './create-reward.js';
import { registerGetReward } from './get-reward.js';
import { registerListRewards } from './list-rewards.js';
import { registerUpdateReward } from './update-reward.js';

/** `/v1/rewards` (docs/rewards.md#rewards and #codes): the catalogue and its code pools. */
export function registerRewardRoutes(app: App, context: AppContext): void {
  registerCreateReward(app, context);
  registerListRewards(app, context);
  registerGetReward(app, context);
  registerUpdateReward(app, context);
  registerAddCodes(app, context);
  registerCodeSummary(app, context);
}
