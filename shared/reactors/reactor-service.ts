import { randomUUID } from 'node:crypto';
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
import { Webhook } from '../webhooks/webhook.entity.js';
import { ReactorConditions } from './reactor-conditions.js';
import { Reactor } from './reactor.entity.js';
import { findTenantRecord } from '../platform/db/tenant-record.js';

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

export async function createReactor(
  em: EntityManager,
  reactors: TenantCache,
  tenantId: string,
  input: ReactorInput,
  id: string = randomUUID(),
): Promise<Reactor> {
  await checkReactor(em, tenantId, input);
  const reactor = em.create(Reactor, {
    id,
    tenant: tenantId,
    name: input.name,
    eventType: input.eventType,
    isActive: input.isActive ?? true,
    conditions: input.conditions ?? null,
    reactions: input.reactions,
  });
  await em.flush();
  reactors.forget(tenantId);
  return reactor;
}

export async function findReactor(em: EntityManager, tenantId: string, id: string): Promise<Reactor> {
  return findTenantRecord(em, Reactor, tenantId, id, 'reactor');
}

export async function updateReactor(
  em: EntityManager,
  reactors: TenantCache,
  tenantId: string,
  id: string,
  changes: ReactorChanges,
): Promise<Reactor> {
  const reactor = await findReactor(em, tenantId, id);
  await checkReactor(em, tenantId, changes);
  copyWritableFields(reactor, changes, ['name', 'eventType', 'isActive', 'conditions', 'reactions']);
  await em.flush();
  reactors.forget(tenantId);
  return reactor;
}

export async function deleteReactor(
  em: EntityManager,
  reactors: TenantCache,
  tenantId: string,
  id: string,
): Promise<void> {
  const reactor = await findReactor(em, tenantId, id);
  await em.nativeDelete(Reactor, { tenant: tenantId, id: reactor.id });
  reactors.forget(tenantId);
}

/** The event type must exist in the tenant, the conditions must build and evaluate, every PATH must be evaluable, every webhook must be the tenant's. */
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
}
