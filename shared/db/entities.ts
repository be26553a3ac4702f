import { AuditEntry } from '../audit/audit-entry.entity.js';
import { EventType } from '../event-types/event-type.entity.js';
import { IdempotencyRecord } from '../idempotency/idempotency-record.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';

/** Every entity the ORM knows; a new feature adds its own here. */
export const entities = [Tenant, EventType, AuditEntry, IdempotencyRecord, User];
