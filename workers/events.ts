import type { AppContext } from '../shared/context.js';
import { jobEvents, type EventJob } from '../shared/events/event-job.js';
import {
  markReacted,
  registerEvents,
  registrationDependencies,
  type PendingReactions,
} from '../shared/reactors/register-events.js';
import { dispatchWebhooks, type DispatchedEvent } from '../shared/webhooks/dispatch-webhooks.js';
import { Batcher } from '../shared/platform/queues/batcher.js';
import type { JobHandler } from '../shared/job-catalog.js';

/** Up to this many events share one transaction: 250 drained a backlog ~15% faster than 100 (npm run bench). */
const BATCH_SIZE = 250;
/**
 * How long a batch (of registrations, and of reactions) waits for company. At a few hundred events
 * a second (receipts' RECEIPT_REVIEWED, a quiet fleet) 5 ms made batches of one or two, each its
 * own transaction and WAL flush; 25 ms cut the events worker's CPU per event by about a fifth and
 * PostgreSQL's with it, for up to 20 ms more registration lag (and as much again before reactedAt,
 * for an event a webhook takes). A busy queue fills its batches long before.
 */
const BATCH_WAIT_MS = 25;

/**
 * `events` jobs: register (store + points, one transaction per batch of events from concurrent
 * jobs), then the asynchronous reactions (webhook deliveries stored and queued), then `reactedAt`.
 * An event no webhook takes has nothing to do there: registering it sets its `reactedAt` too.
 * A job of reports registers those the acceptance record holds (the others were duplicates) and
 * forgets each once its reactions are done, so a run again after a failure or a crash redoes only
 * what is unfinished; one event that fails fails the job, for BullMQ to retry, without holding
 * back the rest.
 */
export function eventsHandler(context: AppContext): JobHandler<'events'> {
  const registration = registrationDependencies(context);
  const registrations = new Batcher<EventJob, PendingReactions | undefined>(
    (jobs) => registerEvents(registration, jobs),
    BATCH_SIZE,
    BATCH_WAIT_MS,
  );
  const dispatch = {
    orm: context.orm,
    subscriptions: context.webhooks,
    queues: context.queues,
    retryBaseMs: context.config.webhookRetryBaseMs,
  };
  const reactions = new Batcher<DispatchedEvent>(
    async (events) => {
      await dispatchWebhooks(dispatch, events);
      await markReacted(context.orm, events);
    },
    BATCH_SIZE,
    BATCH_WAIT_MS,
  );
  const { acceptedReports } = context;
  return async (data) => {
    const { events, claimedByJob } = jobEvents(data);
    const pending = claimedByJob ? undefined : await acceptedReports.pending(events.map((event) => event.id));
    const accepted = pending ? events.filter((event) => pending.has(event.id)) : events;
    const outcomes = await Promise.allSettled(
      accepted.map(async (event) => {
        const pendingReactions = await registrations.add(event);
        if (pendingReactions)
          await reactions.add({
            id: event.id,
            tenantId: event.tenantId,
            eventTypeName: event.eventTypeName,
            webhookIds: pendingReactions.webhookIds,
          });
      }),
    );
    if (pending)
      await acceptedReports.forget(
        accepted.filter((_, index) => outcomes[index]!.status === 'fulfilled').map((event) => event.id),
      );
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
  };
}
