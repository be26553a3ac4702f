import { auditedChange, type AuditDependencies } from '../audit/audit-log.js';
import type { Actor } from '../audit/audit-job.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { EventTypeDirectory } from './event-type-directory.js';
import { rotateEventTypeSecret, updateEventType, type EventTypeChanges } from './event-type-service.js';
import type { EventTypeView } from './event-type-view.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';

export interface EventTypeChangeDependencies extends AuditDependencies {
  payloadSchemas: PayloadSchemaCompiler;
  /** The cache of types POST /v1/events reads, which a change makes stale. */
  eventTypes: Pick<EventTypeDirectory, 'forget'>;
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
  const { after } = await auditedChange(
    deps,
    em,
    (tx) => updateEventType(tx, deps.payloadSchemas, tenantId, identifier, changes),
    (changed) => ({
      tenantId,
      actor,
      action: 'event_type.updated',
      resourceType: 'event_type',
      resourceId: changed.after.id,
      before: changed.before,
      after: changed.after,
    }),
  );
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
  const { eventType, secret } = await auditedChange(
    deps,
    em,
    (tx) => rotateEventTypeSecret(tx, tenantId, identifier),
    (rotated) => ({
      tenantId,
      actor,
      action: 'event_type.secret_rotated',
      resourceType: 'event_type',
      resourceId: rotated.eventType.id,
      before: null,
      after: { name: rotated.eventType.name, secretRotatedAt: rotated.eventType.updatedAt },
    }),
  );
  deps.eventTypes.forget(tenantId, eventType.name);
  return secret;
}
