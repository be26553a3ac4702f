import { randomUUID } from 'node:crypto';
import type { AuditDependencies } from '../audit/audit-log.js';
import {
  auditedDelete,
  auditedResourceChange,
  auditedUpdate,
  type ChangedBy,
  type TenantRecords,
} from '../audit/audited-resource-change.js';
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

/** Reactor changes: the audit log, and the reactor cache a change makes stale. */
export interface ReactorChangeDependencies extends AuditDependencies {
  reactors: TenantCache;
}

const reactors = (deps: ReactorChangeDependencies): TenantRecords<Reactor> => ({
  resourceType: 'reactor',
  cache: deps.reactors,
  entity: Reactor,
  noun: 'reactor',
  view: reactorView,
});

export async function createReactor(
  deps: ReactorChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  input: ReactorInput,
  id: string = randomUUID(),
): Promise<Reactor> {
  return auditedResourceChange(deps, em, by, reactors(deps), async (tx) => {
    await checkReactor(tx, by.tenantId, input);
    const reactor = tx.create(Reactor, {
      id,
      tenant: by.tenantId,
      name: input.name,
      eventType: input.eventType,
      isActive: input.isActive ?? true,
      conditions: input.conditions ?? null,
      reactions: input.reactions,
    });
    await tx.flush();
    return { result: reactor, resourceId: id, before: null, after: reactorView(reactor) };
  });
}

export async function findReactor(em: EntityManager, tenantId: string, id: string): Promise<Reactor> {
  return findTenantRecord(em, Reactor, tenantId, id, 'reactor');
}

export async function updateReactor(
  deps: ReactorChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: ReactorChanges,
): Promise<Reactor> {
  return auditedUpdate(deps, em, by, reactors(deps), id, async (tx, reactor) => {
    await checkReactor(tx, by.tenantId, changes);
    copyWritableFields(reactor, changes, ['name', 'eventType', 'isActive', 'conditions', 'reactions']);
  });
}

export async function deleteReactor(
  deps: ReactorChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
): Promise<void> {
  await auditedDelete(deps, em, by, reactors(deps), id);
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
