import { Type } from 'typebox';
import type { ListSpec } from '../../shared/platform/lists/list-spec.js';

export const AUDIT_LOG_LIST: ListSpec = {
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

export const AuditEntryResource = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    actor: Type.Object({ subject: Type.String(), scopes: Type.Array(Type.String()) }),
    action: Type.String({
      description:
        '`<resourceType>.created`, `.updated` or `.deleted` for reactor, webhook, rule_set, rule, product and venue; ' +
        'event_type.created, event_type.updated, event_type.secret_rotated, tenant.created, tenant.updated, tenant.disabled, ' +
        'tenant.enabled, tenant.api_key_rotated, receipt.reviewed, user.created, user.updated, user.restricted, ' +
        'user.unrestricted, user.erased',
    }),
    resourceType: Type.String({
      description: 'event_type, tenant, reactor, webhook, rule_set, rule, product, venue, receipt or user',
    }),
    resourceId: Type.String(),
    before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    occurredAt: Type.String({ format: 'date-time' }),
    recordedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'AuditEntry' },
);
