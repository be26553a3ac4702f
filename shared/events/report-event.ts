import type { JwksCache } from '../platform/auth/jwks-cache.js';
import { BadRequestError, ConflictError, fieldError, NotFoundError } from '../platform/errors/app-errors.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { toValidationIssues } from '../platform/validation/ajv.js';
import type { User } from '../users/user.entity.js';
import { duplicateIdentity } from './duplicate-window.js';
import { authorizeReport } from './event-authorization.js';
import type { EventIdAllocator } from './event-ids.js';
import type { EventJob } from './event-job.js';
import type { EventQueueWriter } from './event-queue-writer.js';
import type { EventTypeDirectory, ReportableType } from '../event-types/event-type-directory.js';
import type { EventParts } from './event-view.js';
import type { SubjectDirectory } from '../users/subject-directory.js';

export interface EventReport {
  type: string;
  payload?: Record<string, unknown>;
  subject?: string | number;
  occurredAt?: string;
}

export interface ReportDependencies {
  eventQueue: Pick<EventQueueWriter, 'enqueue'>;
  eventTypes: EventTypeDirectory;
  subjects: SubjectDirectory;
  eventIds: EventIdAllocator;
  jwks: JwksCache;
  /** docs/events.md#subjects: the tenant's service subject, for business proceedings with no customer. */
  serviceSubject: string;
}

/**
 * POST /events after the body's size and shape are checked, in the order
 * docs/events.md#validation-order gives: the type exists and is active (404), the authorization
 * matches it (401), the payload meets its schema (400), the subject resolves (404), the report is
 * no duplicate (409), checked by the same Redis transaction that queues the event under a fresh id
 * (or `reservedId`, the one an Idempotency-Key reserved for it: the report's duplicate identity
 * held under its own id counts as accepted, not as a duplicate). It answers at once, with the event
 * as accepted; the event worker registers it.
 */
export async function reportEvent(
  deps: ReportDependencies,
  tenant: Tenant,
  bearerToken: string | undefined,
  report: EventReport,
  reservedId?: number,
): Promise<EventParts> {
  const found = activeType(await deps.eventTypes.find(tenant.id, report.type));
  const { type } = found;

  const tokenUser = await authorizeReport(type, found.secret, bearerToken, tenant.authentication, deps.jwks);

  const payload = checkPayload(found, report.payload);

  const user = await resolveSubject(deps, tenant.id, type.isPrivate, tokenUser, report.subject);
  const reportedAt = new Date();
  const occurredAt = report.occurredAt ? new Date(report.occurredAt) : null;
  const job: EventJob = {
    id: reservedId ?? (await deps.eventIds.allocate()),
    tenantId: tenant.id,
    eventTypeId: type.id,
    eventTypeName: type.name,
    userId: user?.id ?? null,
    payload,
    reportedAt: reportedAt.toISOString(),
    occurredAt: occurredAt?.toISOString() ?? null,
  };
  const identity = duplicateIdentity(tenant.id, type.name, user?.id ?? deps.serviceSubject, payload);
  if (!(await deps.eventQueue.enqueue(job, identity)))
    throw new ConflictError('Event already exists', { envelopeStatus: 'error', emptyData: true });
  return { id: job.id, type, user, payload, reportedAt, occurredAt };
}

/** The event type a report names, as found: unknown or inactive is 404 with empty data (docs/events.md#validation-order). */
export function activeType(found: ReportableType | undefined): ReportableType {
  if (!found || !found.type.isActive)
    throw new NotFoundError('Failed to find a matching EventType', { emptyData: true });
  return found;
}

/** The payload against the type's schema; an absent payload is `{}` (allowed when there is no schema). */
export function checkPayload(
  { validate }: ReportableType,
  payload: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const checked = payload ?? {};
  if (validate && !validate(checked)) {
    const errors = toValidationIssues(validate.errors, checked);
    throw new BadRequestError(
      `Malformed payload: ${errors.flatMap((error) => Object.values(error.constraints)).join('; ')}`,
      { data: { errors } },
    );
  }
  return checked;
}

async function resolveSubject(
  deps: ReportDependencies,
  tenantId: string,
  isPrivate: boolean,
  tokenUser: string | undefined,
  subject: string | number | undefined,
): Promise<User | null> {
  if (!isPrivate) {
    if (subject !== undefined)
      throw fieldError(
        'subject',
        subject,
        'publicType',
        'A public event type takes its subject from the user token: leave subject out',
      );
    // docs/api-conventions.md#authentication: the token's `sub` is the member's authIdentifier, and
    // only that: a `sub` that happens to be another member's id or account number names nobody
    // else.
    return notFound(
      await deps.subjects.findReferenced(tenantId, { authIdentifier: tokenUser! }),
      'No member is registered for this token: register with POST /v1/users',
    );
  }
  if (subject === undefined) throw fieldError('subject', subject, 'required', 'A private event type needs a subject');
  if (subject === deps.serviceSubject) return null;
  return memberSubject(deps.subjects, tenantId, subject);
}

/**
 * The member a private event's explicit subject names (an authIdentifier, an id or an account
 * number); nobody is 404. docs/events.md#subjects: "Team subjects: 400, not supported yet.": a
 * subject written as a team's (`team.…`, `team:…`) is refused before any lookup, so what it means
 * never depends on the members a tenant happens to have (a member registered with such an
 * authIdentifier is named by its id or account number).
 */
export async function memberSubject(
  subjects: SubjectDirectory,
  tenantId: string,
  subject: string | number,
): Promise<User> {
  if (typeof subject === 'string' && /^team[.:]/i.test(subject))
    throw fieldError('subject', subject, 'notTeam', 'Team subjects are not supported yet');
  return notFound(await subjects.find(tenantId, subject), 'Failed to find a matching subject');
}

function notFound(user: User | undefined, message: string): User {
  if (!user) throw new NotFoundError(message);
  return user;
}
