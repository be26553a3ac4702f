import { actorOf } from '../audit/audit-log.js';
import type { Principal } from '../platform/auth/principal.js';
import type { EntityManager } from '../platform/db/orm.js';
import { fieldError } from '../platform/errors/app-errors.js';
import { findReferencedUser, type MemberReference } from '../users/lookup-user.js';
import { findTokenUser } from '../users/user-service.js';
import { placeAfterPurchase, type PlacementDependencies } from './partner-orders.js';
import type { PurchaseView } from './purchase-resource.js';
import { purchase, type PurchaseDependencies, type PurchaseRequest } from './purchase-service.js';

/** What buying needs: the purchase's transaction (audit, voucher codes) and a partner order's placing. */
export type BuyRewardDependencies = PurchaseDependencies & PlacementDependencies;

/** A purchase as asked for: by whom, and for which member when an admin buys. */
export interface BuyRequest extends Omit<PurchaseRequest, 'userId' | 'actor'> {
  /** Who asks: the member's user token, or an admin's. */
  principal: Principal;
  /** The member an admin buys for; a member's own token names none. */
  subject: MemberReference | undefined;
}

/**
 * docs/rewards.md#purchases: a member buys a reward with points. A user token buys for its own
 * member, an admin token for the member it names; the purchase commits (purchase-service.ts), then
 * a partner product's order is placed, a PARTNER2 one waited for briefly (partner-orders.ts).
 */
export async function buyReward(
  deps: BuyRewardDependencies,
  em: EntityManager,
  request: BuyRequest,
  now: Date,
): Promise<PurchaseView> {
  const { principal, subject, ...rest } = request;
  const userId = await buyerOf(em, request.tenantId, principal, subject);
  const bought = await purchase(deps, em, { ...rest, userId, actor: actorOf(principal) }, now);
  return placeAfterPurchase(deps, request.tenantId, bought);
}

async function buyerOf(
  em: EntityManager,
  tenantId: string,
  principal: Principal,
  subject: MemberReference | undefined,
): Promise<string> {
  if (principal.kind === 'user') {
    if (subject)
      throw fieldError('subject', subject, 'absent', 'A user token buys for its own member: leave out subject');
    return (await findTokenUser(em, tenantId, principal.authIdentifier)).id;
  }
  if (!subject)
    throw fieldError('subject', undefined, 'required', 'An admin token names the member it buys for in subject');
  return (await findReferencedUser(em, tenantId, subject)).id;
}
