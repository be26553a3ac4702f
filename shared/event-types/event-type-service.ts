import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { BadRequestError, NotFoundError } from '../platform/errors/app-errors.js';
import { generateSecret, hashSecret } from '../platform/secrets/secret-token.js';
import type { JsonSchema } from '../platform/validation/payload-schema.js';
import { EventType } from './event-type.entity.js';
import { eventTypeView, type EventTypeView } from './event-type-view.js';
import type { PayloadSchemaCompiler } from '../platform/validation/payload-schema.js';
import { isUuid } from '../platform/db/tenant-record.js';

export const EVENT_TYPE_SECRET_PREFIX = 'ets_';

export interface NewEventType {
  name: string;
  description: string;
  isPrivate: boolean;
  schema?: JsonSchema;
  omitFromUserActivity?: boolean;
  isActive?: boolean;
}

/** `name` and `isPrivate` are fixed once created (docs/events.md#event-types). */
export interface EventTypeChanges {
  description?: string;
  schema?: JsonSchema | null;
  omitFromUserActivity?: boolean;
  isActive?: boolean;
}

export async function createEventType(
  em: EntityManager,
  compiler: PayloadSchemaCompiler,
  tenantId: string,
  input: NewEventType,
  id: string = randomUUID(),
): Promise<{ eventType: EventTypeView; secret?: string }> {
  if (input.schema) compiler.compile(input.schema, 'schema');
  const secret = input.isPrivate ? generateSecret(EVENT_TYPE_SECRET_PREFIX) : undefined;
  const eventType = em.create(EventType, {
    id,
    tenant: tenantId,
    name: input.name,
    description: input.description,
    isPrivate: input.isPrivate,
    schema: input.schema ?? null,
    omitFromUserActivity: input.omitFromUserActivity ?? false,
    isActive: input.isActive ?? true,
    secretHash: secret ? hashSecret(secret) : null,
    isSystem: false,
  });
  await em.flush();
  return { eventType: eventTypeView(eventType), ...(secret ? { secret } : {}) };
}

/** By uuid or by name, within the tenant; another tenant's type is simply not found. */
export async function findEventType(em: EntityManager, tenantId: string, identifier: string): Promise<EventType> {
  const eventType = await em.findOne(
    EventType,
    isUuid(identifier) ? { tenant: tenantId, id: identifier } : { tenant: tenantId, name: identifier },
  );
  if (!eventType) throw new NotFoundError(`No event type "${identifier}"`);
  return eventType;
}

export async function updateEventType(
  em: EntityManager,
  compiler: PayloadSchemaCompiler,
  tenantId: string,
  identifier: string,
  changes: EventTypeChanges,
): Promise<{ before: EventTypeView; after: EventTypeView }> {
  const eventType = await findEventType(em, tenantId, identifier);
  const before = eventTypeView(eventType);
  if (changes.schema) compiler.compile(changes.schema, 'schema');
  copyWritableFields(eventType, changes, ['description', 'schema', 'omitFromUserActivity', 'isActive']);
  await em.flush();
  return { before, after: eventTypeView(eventType) };
}

/** A new secret for a private type; the old one stops working at once. */
export async function rotateEventTypeSecret(
  em: EntityManager,
  tenantId: string,
  identifier: string,
): Promise<{ eventType: EventTypeView; secret: string }> {
  const eventType = await findEventType(em, tenantId, identifier);
  if (!eventType.isPrivate)
    throw new BadRequestError(`Event type ${eventType.name} is public: public types have no secret`);
  const secret = generateSecret(EVENT_TYPE_SECRET_PREFIX);
  eventType.secretHash = hashSecret(secret);
  await em.flush();
  return { eventType: eventTypeView(eventType), secret };
}
