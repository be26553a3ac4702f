import { forServiceSubject, react, type ReactionOutcome } from './react.js';
import type { ReactorDirectory } from './reactor-directory.js';
import { userView } from '../users/user-view.js';
import type { EventTypeDirectory } from '../event-types/event-type-directory.js';
import { eventFacts } from './compute-reactions.js';
import { activeType, checkPayload, memberSubject, type EventReport } from '../events/report-event.js';
import type { SubjectDirectory } from '../users/subject-directory.js';

export interface TestReactionDependencies {
  eventTypes: EventTypeDirectory;
  subjects: SubjectDirectory;
  reactors: ReactorDirectory;
  serviceSubject: string;
}

/**
 * POST /events/test_reaction (docs/events.md#testing-reactions): which reactions an event would
 * trigger, computed exactly as the worker computes them, storing nothing. The member is the
 * explicit `subject`, when given; the type and subject are refused as POST /events refuses them,
 * and the service subject, as in the worker, runs no POINTS reactions.
 */
export async function testReaction(
  deps: TestReactionDependencies,
  tenantId: string,
  report: EventReport,
): Promise<ReactionOutcome> {
  const found = activeType(await deps.eventTypes.find(tenantId, report.type));
  const payload = checkPayload(found, report.payload);
  const isServiceSubject = report.subject === deps.serviceSubject;
  const user =
    report.subject === undefined || isServiceSubject
      ? undefined
      : await memberSubject(deps.subjects, tenantId, report.subject);
  const now = new Date().toISOString();
  const facts = {
    event: eventFacts({
      id: 0,
      eventTypeName: found.type.name,
      reportedAt: now,
      occurredAt: report.occurredAt ?? null,
    }),
    payload,
    user: user ? userView(user) : null,
  };
  const reactors = await deps.reactors.forEventType(tenantId, found.type.name);
  return react(isServiceSubject ? forServiceSubject(reactors) : reactors, facts);
}
