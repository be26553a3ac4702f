import { randomUUID } from 'node:crypto';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedRecords } from '../audit/audited-records.js';
import type { ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { fieldError } from '../platform/errors/app-errors.js';
import { EventType } from '../event-types/event-type.entity.js';
import { jsonPathProblem } from '../platform/json-path/json-path.js';
import type { RuleConditions } from '../platform/conditions/conditions.js';
import type { Reaction } from './reaction.js';
import { reactionWebhookIds } from './react.js';
import { reactionPaths } from './reactor-reads.js';
import { Reward } from '../rewards/reward.entity.js';
import { Webhook } from '../webhooks/webhook.entity.js';
import { ReactorConditions } from './reactor-conditions.js';
import { Reactor } from './reactor.entity.js';

export interface ReactorInput {
  name: string;
  eventType: string;
  isActive?: boolean;
  conditions?: RuleConditions | null;
  reactions: Reaction[];
}

export type ReactorChanges = Partial<ReactorInput>;

export function reactorView(reactor: Reactor) {
  return {
    id: reactor.id,
    name: reactor.name,
    eventType: reactor.eventType,
    isActive: reactor.isActive,
    conditions: reactor.conditions ?? null,
    reactions: reactor.reactions,
    createdAt: reactor.createdAt.toISOString(),
    updatedAt: reactor.updatedAt.toISOString(),
  };
}

/** Reactor changes: the audit log, and the reactor cache a change makes stale. */
export interface ReactorChangeDependencies extends AuditDependencies {
  reactors: TenantCache;
}

const reactors = auditedRecords({
  resourceType: 'reactor',
  entity: Reactor,
  view: reactorView,
  cache: (deps: ReactorChangeDependencies) => deps.reactors,
});

export async function createReactor(
  deps: ReactorChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: ReactorInput,
  id: string = randomUUID(),
): Promise<Reactor> {
  return reactors.create(deps, em, by, id, async (tx, owned) => {
    await checkReactor(tx, by.tenantId, input);
    const reactor = tx.create(Reactor, {
      ...owned,
      name: input.name,
      eventType: input.eventType,
      isActive: input.isActive ?? true,
      conditions: input.conditions ?? null,
      reactions: input.reactions,
    });
    return reactor;
  });
}

export const findReactor = reactors.find;

export async function updateReactor(
  deps: ReactorChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: ReactorChanges,
): Promise<Reactor> {
  return reactors.update(deps, em, by, id, async (tx, reactor) => {
    await checkReactor(tx, by.tenantId, changes);
    copyWritableFields(reactor, changes, ['name', 'eventType', 'isActive', 'conditions', 'reactions']);
  });
}

export const deleteReactor = reactors.remove;

/**
 * The event type must exist in the tenant, the conditions must build and evaluate, every PATH must
 * be evaluable, every webhook must be the tenant's, and every VOUCHER reaction must name a VOUCHER
 * reward of the tenant, one at most per reactor (a voucher is given once per event and reactor).
 */
async function checkReactor(em: EntityManager, tenantId: string, input: ReactorChanges): Promise<void> {
  if (input.eventType !== undefined && !(await em.count(EventType, { tenant: tenantId, name: input.eventType }))) {
    throw fieldError('eventType', input.eventType, 'exists', `No event type named ${input.eventType}`);
  }
  if (input.conditions) await ReactorConditions.check(input.conditions);
  const problems = (input.reactions ?? [])
    .flatMap(reactionPaths)
    .map(jsonPathProblem)
    .filter((problem) => problem !== undefined);
  if (problems.length) throw fieldError('reactions', undefined, 'jsonPath', `reactions: ${problems.join('; ')}`);
  const webhookIds = reactionWebhookIds(input.reactions ?? []);
  const known = webhookIds.length
    ? await em.find(Webhook, { tenant: tenantId, id: { $in: webhookIds } }, { fields: ['id'] })
    : [];
  const unknown = webhookIds.filter((id) => !known.some((webhook) => webhook.id === id));
  if (unknown.length)
    throw fieldError('reactions', unknown, 'webhookExists', `reactions: no webhook with id ${unknown.join(', ')}`);
  await checkVoucherReactions(em, tenantId, input.reactions ?? []);
}

async function checkVoucherReactions(em: EntityManager, tenantId: string, reactions: Reaction[]): Promise<void> {
  const vouchers = reactions.flatMap((reaction, index) =>
    reaction.type === 'VOUCHER' ? [{ index, rewardId: reaction.rewardId }] : [],
  );
  if (vouchers.length === 0) return;
  if (vouchers.length > 1) {
    const { index } = vouchers[1]!;
    throw fieldError(
      `reactions[${index}]`,
      reactions[index],
      'oneVoucher',
      `reactions[${index}]: a reactor gives at most one voucher per event; give the other with another reactor`,
    );
  }
  const { index, rewardId } = vouchers[0]!;
  if (!(await em.count(Reward, { tenant: tenantId, id: rewardId, type: 'VOUCHER' }))) {
    throw fieldError(
      `reactions[${index}].rewardId`,
      rewardId,
      'voucherRewardExists',
      `reactions[${index}].rewardId: no VOUCHER reward with id ${rewardId}`,
    );
  }
}
