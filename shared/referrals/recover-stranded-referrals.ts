import { eventJobId, type EventsQueue } from '../events/event-job.js';
import type { IntrinsicEventDependencies } from '../events/queue-intrinsic-event.js';
import { idsWithUnregisteredEvents } from '../events/stranded-events.js';
import type { Orm } from '../platform/db/orm.js';
import { retryIfFailed, type SweepWindow } from '../platform/queues/stranded-work.js';
import { Referral } from './referral.entity.js';
import { reportReferral } from './referred-registration.js';

/**
 * Referrals whose REFERRED_REGISTRATION or REFERRAL_COMPLETED a crash left unqueued (or whose job
 * failed for good), reported again under the event ids the referral keeps, which the event worker
 * registers once. Counted as the other sweeps count: events queued again, up to two a referral.
 */
export async function recoverStrandedReferrals(
  deps: IntrinsicEventDependencies & { orm: Orm; queues: EventsQueue },
  window: SweepWindow,
) {
  const em = deps.orm.em.fork();
  const ids = new Set([
    ...(await idsWithUnregisteredEvents(em, 'referral', window, 'registration_event_id')),
    ...(await idsWithUnregisteredEvents(em, 'referral', window, 'completed_event_id')),
  ]);
  const referrals = ids.size ? await em.find(Referral, { id: { $in: [...ids] } }) : [];
  let referralEvents = 0;
  for (const referral of referrals) {
    // The events reportReferral queues: those whose type was active when the referral was stored.
    const eventIds = [referral.registrationEventId, referral.completedEventId].filter(
      (eventId): eventId is number => eventId !== null && eventId !== undefined,
    );
    for (const eventId of eventIds) await retryIfFailed(deps.queues.events, eventJobId(eventId));
    await reportReferral(deps, referral);
    referralEvents += eventIds.length;
  }
  return { referralEvents };
}
