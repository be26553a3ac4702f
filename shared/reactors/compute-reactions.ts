import type { EventJob } from '../events/event-job.js';
import type { EntityManager } from '../platform/db/orm.js';
import { User } from '../users/user.entity.js';
import { userView, type UserView } from '../users/user-view.js';
import type { WebhookSubscriptions } from '../webhooks/webhook-subscriptions.js';
import { forServiceSubject, react, reactionWebhookIds, type ReactionOutcome } from './react.js';
import type { ReactorDirectory } from './reactor-directory.js';

/** An event of a batch, with what its reactors made of it. */
export interface Registration {
  job: EventJob;
  outcome: ReactionOutcome;
  /** The webhooks its WEBHOOK reactions name. */
  webhookIds: string[];
  /** Whether a webhook takes the event, or a WEBHOOK reaction names one: if not, it is reacted to as it is registered. */
  awaitsReactions: boolean;
}

/**
 * The reactions of each job, and whether a webhook takes it. Members are loaded, in one query,
 * only for the events whose reactors read them; the service subject has no wallet, so its events
 * run only their reactors' other reactions and are never worth points.
 */
export async function computeReactions(
  em: EntityManager,
  { reactors, subscriptions }: { reactors: ReactorDirectory; subscriptions: WebhookSubscriptions },
  jobs: EventJob[],
): Promise<Registration[]> {
  const reactorsOf = await Promise.all(
    jobs.map(async (job) => {
      const active = await reactors.forEventType(job.tenantId, job.eventTypeName);
      return job.userId ? active : forServiceSubject(active);
    }),
  );
  const subscribed = await Promise.all(jobs.map((job) => subscriptions.anyFor(job.tenantId, job.eventTypeName)));
  const readers = jobs.filter((job, index) => job.userId && reactorsOf[index]!.some((reactor) => reactor.readsUser));
  const users = await membersOf(em, readers);
  return Promise.all(
    jobs.map(async (job, index) => {
      const facts = {
        event: eventFacts(job),
        payload: job.payload,
        user: (job.userId && users.get(memberKey(job.tenantId, job.userId))) || null,
      };
      const outcome = await react(reactorsOf[index]!, facts);
      const webhookIds = reactionWebhookIds(outcome.reactions);
      return { job, outcome, webhookIds, awaitsReactions: subscribed[index]! || webhookIds.length > 0 };
    }),
  );
}

/** The members of these events, each looked for within its event's tenant, in one query; keyed by memberKey. */
async function membersOf(em: EntityManager, jobs: EventJob[]): Promise<Map<string, UserView>> {
  const idsByTenant = new Map<string, Set<string>>();
  for (const job of jobs) idsByTenant.set(job.tenantId, (idsByTenant.get(job.tenantId) ?? new Set()).add(job.userId!));
  if (idsByTenant.size === 0) return new Map();
  const members = await em.find(User, {
    $or: [...idsByTenant].map(([tenant, ids]) => ({ tenant, id: { $in: [...ids] } })),
  });
  return new Map(members.map((member) => [memberKey(member.tenant.id, member.id), userView(member)]));
}

function memberKey(tenantId: string, userId: string): string {
  return `${tenantId}:${userId}`;
}

/** The `event` fact of reactor conditions, and the document PATH arguments read. */
export function eventFacts(
  job: Pick<EventJob, 'id' | 'eventTypeName' | 'reportedAt' | 'occurredAt'>,
): Record<string, unknown> {
  return { id: job.id, type: job.eventTypeName, reportedAt: job.reportedAt, occurredAt: job.occurredAt };
}
