import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.js';
import type { AuditJob } from './audit-job.js';

/**
 * An admin change's audit job, written in the change's own transaction and deleted with the
 * recording of its entry: a process that dies between the commit and queueing the job leaves it
 * here, for the recovery sweep to queue again (the transactional outbox pattern).
 */
export const AuditOutbox = defineEntity({
  name: 'AuditOutbox',
  tableName: 'audit_outbox',
  indexes: [{ properties: ['createdAt'] }],
  properties: {
    /** The audit entry's id, and its job's. */
    id: p.uuid().primary(),
    tenant: p.manyToOne(Tenant).deleteRule('cascade'),
    job: p.json<AuditJob>(),
    createdAt: p.datetime(),
  },
});

export type AuditOutbox = InferEntity<typeof AuditOutbox>;
