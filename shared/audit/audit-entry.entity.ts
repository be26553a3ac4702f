import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';

/** One admin change, recorded by the audit worker. Append-only. */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  indexes: [{ properties: ['tenant', 'occurredAt'] }],
  properties: {
    /** Chosen when the change is made and carried by the job, so a job delivered twice inserts once. */
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    actorSubject: p.string(),
    actorScopes: p.json<string[]>(),
    action: p.string(),
    resourceType: p.string(),
    resourceId: p.string(),
    before: p.json<Record<string, unknown>>().nullable(),
    after: p.json<Record<string, unknown>>().nullable(),
    occurredAt: p.datetime(),
    recordedAt: p.datetime().onCreate(() => new Date()),
  },
});

export type AuditEntry = InferEntity<typeof AuditEntry>;
