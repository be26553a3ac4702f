import { randomBytes, randomUUID } from 'node:crypto';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedRecords } from '../audit/audited-records.js';
import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { ConflictError, fieldError } from '../platform/errors/app-errors.js';
import { EventType } from '../event-types/event-type.entity.js';
import type { Sealer } from '../platform/secrets/sealer.js';
import { Webhook } from './webhook.entity.js';

export interface WebhookInput {
  url: string;
  eventTypes?: string[];
  isActive?: boolean;
}

export function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    eventTypes: webhook.eventTypes,
    isActive: webhook.isActive,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}

/** Standard Webhooks secrets: `whsec_` and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The signing secret is kept sealed (it must be readable to sign, so it cannot be a hash), bound to its webhook. */
export function webhookSecretContext(webhookId: string): string {
  return `webhook:${webhookId}`;
}

/** Webhook changes: the audit log, and the subscription cache a change makes stale. */
export interface WebhookChangeDependencies extends AuditDependencies {
  webhooks: TenantCache;
}

/** Audited as its view: the signing secret is never in the audit log. */
const webhooks = auditedRecords({
  resourceType: 'webhook',
  entity: Webhook,
  view: webhookView,
  cache: (deps: WebhookChangeDependencies) => deps.webhooks,
  checkRemoval: checkNotDelivering,
});

export async function createWebhook(
  deps: WebhookChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  sealer: Sealer,
  input: WebhookInput,
  allowPlainHttp: boolean,
  id: string = randomUUID(),
) {
  return auditedResourceChange(deps, em, by, webhooks.resource(deps), async (tx) => {
    await checkWebhook(tx, by.tenantId, input, allowPlainHttp);
    const secret = newSecret();
    const webhook = tx.create(Webhook, {
      id,
      tenant: by.tenantId,
      url: input.url,
      eventTypes: input.eventTypes ?? [],
      secret: sealer.seal(secret, webhookSecretContext(id)),
      isActive: input.isActive ?? true,
    });
    await tx.flush();
    const after = webhookView(webhook);
    return { result: { ...after, secret }, resourceId: id, before: null, after };
  });
}

export const findWebhook = webhooks.find;

export async function updateWebhook(
  deps: WebhookChangeDependencies,
  em: EntityManager,
  by: ChangedBy,
  id: string,
  changes: Partial<WebhookInput>,
  allowPlainHttp: boolean,
): Promise<Webhook> {
  return webhooks.update(deps, em, by, id, async (tx, webhook) => {
    await checkWebhook(tx, by.tenantId, changes, allowPlainHttp);
    copyWritableFields(webhook, changes, ['url', 'eventTypes', 'isActive']);
  });
}

export const deleteWebhook = webhooks.remove;

/**
 * A webhook that a reactor's WEBHOOK reaction names is not deleted (409): the reactor would go on
 * listing it and stop delivering without a word. Deactivating it pauses it, reactions included.
 */
async function checkNotDelivering(tx: EntityManager, webhook: Webhook): Promise<void> {
  const naming = await tx.execute<{ name: string }[]>(
    'select name from reactor where tenant_id = ? and reactions @> ?::jsonb order by name',
    [webhook.tenant.id, JSON.stringify([{ type: 'WEBHOOK', webhookId: webhook.id }])],
  );
  if (naming.length) {
    throw new ConflictError(`Reactors deliver to this webhook: ${naming.map((reactor) => reactor.name).join(', ')}`, {
      data: { explanation: 'Remove the WEBHOOK reactions that name it first, or deactivate the webhook instead' },
    });
  }
}

/** https only (plain http too where private addresses are allowed, for tests and demos); known event types. */
async function checkWebhook(
  em: EntityManager,
  tenantId: string,
  input: Partial<WebhookInput>,
  allowPlainHttp: boolean,
): Promise<void> {
  if (input.url !== undefined) {
    const protocol = URL.canParse(input.url) ? new URL(input.url).protocol : '';
    if (protocol !== 'https:' && !(allowPlainHttp && protocol === 'http:'))
      throw fieldError('url', input.url, 'isHttps', 'The webhook url must be an https address');
  }
  const names = input.eventTypes ?? [];
  if (names.length) {
    const known = await em.find(EventType, { tenant: tenantId, name: { $in: names } }, { fields: ['name'] });
    const unknown = names.filter((name) => !known.some((type) => type.name === name));
    if (unknown.length) throw fieldError('eventTypes', unknown, 'exists', `No event type named ${unknown.join(', ')}`);
  }
}
