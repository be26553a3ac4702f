import { NotFoundError } from '../errors/app-errors.js';
import { react, type ReactionOutcome } from '../reactors/react.js';
import type { ReactorDirectory } from '../reactors/reactor-directory.js';
import { userView } from '../users/user-view.js';
import type { EventTypeDirectory } from './event-type-directory.js';
import { eventFacts } from './register-events.js';
import { checkPayload, refuseTeamSubject, type EventReport } from './report-event.js';
import type { SubjectDirectory } from './subject-directory.js';

export interface TestReactionDependencies {
  eventTypes: EventTypeDirectory;
  subjects: SubjectDirectory;
  reactors: ReactorDirectory;
  serviceSubject: string;
}

/**
 * POST /events/test_reaction (rewards-interface.md): which reactions an event would trigger,
 * computed exactly as the worker computes them, storing nothing. The member is the explicit
 * `subject`, when given; the type and subject are refused as POST /events refuses them, and the
 * service subject, like the worker, earns nothing.
 */
export async function testReaction(deps: TestReactionDependencies, tenantId: string, report: EventReport): Promise<ReactionOutcome> {
  const found = await deps.eventTypes.find(tenantId, report.type);
  if (!found || !found.type.isActive) throw new NotFoundError('Failed to find a matching EventType', { emptyData: true });
  const payload = checkPayload(found, report.payload);
  if (report.subject === deps.serviceSubject) return { reactions: [], totalPoints: 0, activatedReactors: [] };
  if (report.subject !== undefined) refuseTeamSubject(report.subject);
  const user = report.subject === undefined ? undefined : await deps.subjects.find(tenantId, report.subject);
  if (report.subject !== undefined && !user) throw new NotFoundError('Failed to find a matching subject');
  const now = new Date().toISOString();
  const facts = {
    event: eventFacts({ id: 0, eventTypeName: found.type.name, reportedAt: now, occurredAt: report.occurredAt ?? null }),
    payload,
    user: user ? userView(user) : null,
  };
  return react(await deps.reactors.forEventType(tenantId, found.type.name), facts);
}
