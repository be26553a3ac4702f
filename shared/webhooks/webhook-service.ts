import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '../platform/db/orm.js';
import type { TenantCache } from '../platform/cache/tenant-cache.js';
import { copyWritableFields } from '../platform/db/copy-writable-fields.js';
import { ConflictError, fieldError } from '../platform/errors/app-errors.js';
import { EventType } from '../event-types/event-type.entity.js';
import type { Sealer } from '../platform/secrets/sealer.js';
import { Webhook } from './webhook.entity.js';
import { findTenantRecord } from '../platform/db/tenant-record.js';

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

export async function createWebhook(
  em: EntityManager,
  subscriptions: TenantCache,
  sealer: Sealer,
  tenantId: string,
  input: WebhookInput,
  allowPlainHttp: boolean,
  id: string = randomUUID(),
) {
  await checkWebhook(em, tenantId, input, allowPlainHttp);
  const secret = newSecret();
  const webhook = em.create(Webhook, {
    id,
    tenant: tenantId,
    url: input.url,
    eventTypes: input.eventTypes ?? [],
    secret: sealer.seal(secret, webhookSecretContext(id)),
    isActive: input.isActive ?? true,
  });
  await em.flush();
  subscriptions.forget(tenantId);
  return { ...webhookView(webhook), secret };
}

export async function findWebhook(em: EntityManager, tenantId: string, id: string): Promise<Webhook> {
  return findTenantRecord(em, Webhook, tenantId, id, 'webhook');
}

export async function updateWebhook(
  em: EntityManager,
  subscriptions: TenantCache,
  tenantId: string,
  id: string,
  changes: Partial<WebhookInput>,
  allowPlainHttp: boolean,
): Promise<Webhook> {
  const webhook = await findWebhook(em, tenantId, id);
  await checkWebhook(em, tenantId, changes, allowPlainHttp);
  copyWritableFields(webhook, changes, ['url', 'eventTypes', 'isActive']);
  await em.flush();
  subscriptions.forget(tenantId);
  return webhook;
}

/**
 * A webhook that a reactor's WEBHOOK reaction names is not deleted (409): the reactor would go on
 * listing it and stop delivering without a word. Deactivating it pauses it, reactions included.
 */
export async function deleteWebhook(
  em: EntityManager,
  subscriptions: TenantCache,
  tenantId: string,
  id: string,
): Promise<void> {
  const webhook = await findWebhook(em, tenantId, id);
  const naming = await em
    .getConnection()
    .execute<{ name: string }[]>(
      'select name from reactor where tenant_id = ? and reactions @> ?::jsonb order by name',
      [tenantId, JSON.stringify([{ type: 'WEBHOOK', webhookId: webhook.id }])],
    );
  if (naming.length) {
    throw new ConflictError(`Reactors deliver to this webhook: ${naming.map((reactor) => reactor.name).join(', ')}`, {
      data: { explanation: 'Remove the WEBHOOK reactions that name it first, or deactivate the webhook instead' },
    });
  }
  await em.nativeDelete(Webhook, { tenant: tenantId, id: webhook.id });
  subscriptions.forget(tenantId);
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
