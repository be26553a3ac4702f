import { recordAuditEntry } from '../shared/audit/audit-log.js';
import type { AppContext } from '../shared/context.js';
import type { JobHandler } from '../shared/job-catalog.js';

/** `audit` jobs: one admin change each, recorded once however often it is delivered. */
export function auditHandler(context: AppContext): JobHandler<'audit'> {
  return (data) => recordAuditEntry(context.orm.em.fork(), data);
}
