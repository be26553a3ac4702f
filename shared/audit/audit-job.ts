import type { Queue } from 'bullmq';
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

/** The queue audit entries are recorded from: what a feature that audits is given (job-catalog.ts holds every queue). */
export interface AuditQueue {
  audit: Queue<AuditJob>;
}
