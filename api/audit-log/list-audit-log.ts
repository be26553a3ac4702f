import { Type } from 'typebox';
import { AuditEntry } from '../../shared/audit/audit-entry.entity.js';
import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { AUDIT_LOG_LIST, AuditEntryResource } from './schema.js';

function auditEntryView(entry: AuditEntry) {
  return {
    id: entry.id,
    actor: { subject: entry.actorSubject, scopes: entry.actorScopes },
    action: entry.action,
    resourceType: entry.resourceType,
    resourceId: entry.resourceId,
    before: entry.before ?? null,
    after: entry.after ?? null,
    occurredAt: entry.occurredAt.toISOString(),
    recordedAt: entry.recordedAt.toISOString(),
  };
}

export function registerListAuditLog(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/audit-log',
    summary: 'Admin changes of this tenant: who, what, when, before and after',
    tags: ['Audit log'],
    access: { admin: 'admin:tenant' },
    query: listQuery(AUDIT_LOG_LIST),
    responses: {
      200: { description: 'a page of audit entries; see Content-Range', data: Type.Array(AuditEntryResource) },
    },
    errors: [400],
    handler: ({ query }, c) => listPage(c, AuditEntry, AUDIT_LOG_LIST, query, auditEntryView),
  });
}
