import { Type } from 'typebox';
import { AuditEntry } from '../../shared/audit/audit-entry.entity.js';
import type { AppContext } from '../../shared/context.js';
import type { App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
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
    operationId: 'listAuditEntries',
    description: `Every admin change of this tenant, newest first: who made it (the token's subject and scopes), the action, and the record before and after, secrets left out. ${LIST_PAGE}`,
    examples: {
      response: [
        {
          id: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
          actor: { subject: 'ops@example.org', scopes: ['admin:event_types'] },
          action: 'event_type.updated',
          resourceType: 'event_type',
          resourceId: '6f1c0d2e-8a3b-4c5d-9e7f-0a1b2c3d4e5f',
          before: { description: 'A purchase' },
          after: { description: 'A purchase in a shop' },
          occurredAt: '2026-01-05T10:00:00.000Z',
          recordedAt: '2026-01-05T10:00:00.050Z',
        },
      ],
    },
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
