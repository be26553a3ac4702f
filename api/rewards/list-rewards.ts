import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { readPoints } from '../../shared/ledger/wallet-service.js';
import { Reward } from '../../shared/rewards/reward.entity.js';
import { offeredAt, rewardView } from '../../shared/rewards/reward-service.js';
import { configuredPartners } from '../../shared/tenants/tenant-settings.js';
import { findTokenUser } from '../../shared/users/user-service.js';
import { entityManager, type App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { ListedReward, REWARD_EXAMPLE, REWARD_LIST, tags } from './schema.js';

export function registerListRewards(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/rewards',
    operationId: 'listRewards',
    description:
      "With an `admin:rewards` token, the tenant's rewards. With a member's token, what that member can buy now: `VOUCHER` rewards, and the partner products of the partners the tenant has an endpoint for (`configuration.partners`), that are purchasable, inside their `availableFrom`–`availableUntil` window, with stock left and, for a reward with a code pool, a free code in it; each with `affordable`, true when the member's balance covers the price. A page of the list either way: `limit`, `skip`, `sort`, `order` and an O-Rison `filter` over the fields named below; `Content-Range` says where the page sits in the whole.",
    examples: { response: [{ ...REWARD_EXAMPLE, affordable: true }] },
    summary: "List rewards: the catalogue, or with a member's token what the member can buy now",
    tags,
    access: { admin: 'admin:rewards', user: true },
    query: listQuery(REWARD_LIST),
    responses: { 200: { description: 'a page of rewards', data: Type.Array(ListedReward) } },
    errors: [400, 404],
    handler: async ({ query }, c) => {
      const principal = c.var.principal!;
      if (principal.kind !== 'user') return listPage(c, Reward, REWARD_LIST, query, rewardView);
      const em = entityManager(c);
      const member = await findTokenUser(em, c.var.tenant.id, principal.authIdentifier);
      const { points } = await readPoints(em, c.var.tenant.id, member.id);
      return listPage(
        c,
        Reward,
        REWARD_LIST,
        query,
        (reward) => ({ ...rewardView(reward), affordable: points >= reward.price }),
        {
          scope: offeredAt(new Date(context.clock.now()), configuredPartners(c.var.tenant.configuration)),
        },
      );
    },
  });
}
