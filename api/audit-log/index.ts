import { Type } from 'typebox';
import { AuditEntry } from '../../shared/audit/audit-entry.entity.js';
import type { AppContext } from '../../shared/context.js';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';
import type { App } from '../app-env.js';
import { listParameters, listResponse } from '../lists/list-route.js';
import { authorize } from '../middleware/authorize.js';
import { describe } from '../openapi/describe.js';

const AUDIT_LOG_LIST: ListSpec = {
  resource: 'audit_entry',
  defaultSort: 'occurredAt',
  fields: {
    occurredAt: { type: 'datetime', filterable: true, sortable: true },
    recordedAt: { type: 'datetime', filterable: true, sortable: true },
    action: { type: 'string', filterable: true, sortable: true },
    resourceType: { type: 'string', filterable: true },
    resourceId: { type: 'string', filterable: true },
    'actor.subject': { type: 'string', path: 'actorSubject', filterable: true },
    'actor.scopes': { type: 'array', path: 'actorScopes', filterable: true },
    before: { type: 'object', filterable: true },
    after: { type: 'object', filterable: true },
  },
};

const AuditEntryResource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  actor: Type.Object({ subject: Type.String(), scopes: Type.Array(Type.String()) }),
  action: Type.String({ description: 'e.g. event_type.created, event_type.updated, event_type.secret_rotated, tenant.api_key_rotated' }),
  resourceType: Type.String(),
  resourceId: Type.String(),
  before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  occurredAt: Type.String({ format: 'date-time' }),
  recordedAt: Type.String({ format: 'date-time' }),
});

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

export function registerAuditLogRoutes(app: App, context: AppContext): void {
  const access = { admin: 'admin:tenant' } as const;
  app.get(
    '/v1/audit-log',
    describe({
      summary: 'Admin changes of this tenant: who, what, when, before and after',
      tags: ['Audit log'],
      access,
      parameters: listParameters(AUDIT_LOG_LIST),
      responses: { 200: { description: 'a page of audit entries; see Content-Range', data: Type.Array(AuditEntryResource) } },
      errors: [400],
    }),
    authorize(context, access),
    (c) => listResponse(c, AuditEntry, AUDIT_LOG_LIST, auditEntryView),
  );
}
