import { Type, type Static } from 'typebox';

/** Who made an admin change: the admin token's subject and scopes, or the CLI. */
export const Actor = Type.Object({
  subject: Type.String(),
  scopes: Type.Array(Type.String()),
});
export type Actor = Static<typeof Actor>;

/** The payload of one `audit` job: an admin change, before and after, with secrets removed. */
export const AuditJob = Type.Object({
  id: Type.String({ format: 'uuid' }),
  tenantId: Type.String({ format: 'uuid' }),
  actor: Actor,
  action: Type.String({ minLength: 1 }),
  resourceType: Type.String({ minLength: 1 }),
  resourceId: Type.String({ minLength: 1 }),
  before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  occurredAt: Type.String({ format: 'date-time' }),
});
export type AuditJob = Static<typeof AuditJob>;
