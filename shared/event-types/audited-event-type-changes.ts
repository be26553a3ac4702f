import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedResourceChange } from '../audit/audited-resource-change.js';
import type { Actor } from '../audit/audit-job.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { EventTypeDirectory } from './event-type-directory.js';
import {
  createEventType,
  rotateEventTypeSecret,
  updateEventType,
  type EventTypeChanges,
  type NewEventType,
} from './event-type-service.js';
import type { EventTypeView } from './event-type-view.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';

export interface EventTypeChangeDependencies extends AuditDependencies {
  payloadSchemas: PayloadSchemaCompiler;
  /** The cache of types POST /v1/events reads, which a change makes stale. */
  eventTypes: Pick<EventTypeDirectory, 'forget'>;
}

/** Its process cache is keyed by name, so each change forgets the type itself. */
const EVENT_TYPE = { resourceType: 'event_type' };

/**
 * An admin's new event type, with its audit entry in the same transaction. Nothing is forgotten
 * after it: the process caches found types only, so a report names the new type at once. The
 * answer carries a private type's secret, which the entry leaves out.
 */
export async function addEventType(
  deps: EventTypeChangeDependencies,
  em: EntityManager,
  actor: Actor,
  tenantId: string,
  input: NewEventType,
  id?: string,
): Promise<{ eventType: EventTypeView; secret?: string }> {
  return auditedResourceChange(deps, em, { tenantId, actor }, EVENT_TYPE, async (tx) => {
    const created = await createEventType(tx, deps.payloadSchemas, tenantId, input, id);
    return { result: created, resourceId: created.eventType.id, before: null, after: created.eventType };
  });
}

/**
 * An admin's change of an event type, as one step wherever it is made from: the change and its
 * audit entry in one transaction (audit-log.ts), then the process's cached type dropped, so the
 * next report meets the new schema or state at once.
 */
export async function changeEventType(
  deps: EventTypeChangeDependencies,
  em: EntityManager,
  actor: Actor,
  tenantId: string,
  identifier: string,
  changes: EventTypeChanges,
): Promise<EventTypeView> {
  const after = await auditedResourceChange(deps, em, { tenantId, actor }, EVENT_TYPE, async (tx) => {
    const { before, after } = await updateEventType(tx, deps.payloadSchemas, tenantId, identifier, changes);
    return { result: after, resourceId: after.id, before, after };
  });
  deps.eventTypes.forget(tenantId, after.name);
  return after;
}

/** A new secret for a private type, audited without the secret itself; the old one stops working at once in this process. */
export async function rotateSecretAudited(
  deps: EventTypeChangeDependencies,
  em: EntityManager,
  actor: Actor,
  tenantId: string,
  identifier: string,
): Promise<string> {
  const { eventType, secret } = await auditedResourceChange(deps, em, { tenantId, actor }, EVENT_TYPE, async (tx) => {
    const rotated = await rotateEventTypeSecret(tx, tenantId, identifier);
    const { id, name, updatedAt } = rotated.eventType;
    return {
      result: rotated,
      resourceId: id,
      action: 'event_type.secret_rotated',
      before: null,
      after: { name, secretRotatedAt: updatedAt },
    };
  });
  deps.eventTypes.forget(tenantId, eventType.name);
  return secret;
}
