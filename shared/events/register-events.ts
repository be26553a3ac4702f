import { randomUUID } from 'node:crypto';
import type { EntityManager, Orm } from '../db/orm.js';
import { react, type ReactionOutcome } from '../reactors/react.js';
import type { ReactorDirectory } from '../reactors/reactor-directory.js';
import { User } from '../users/user.entity.js';
import { userView } from '../users/user-view.js';
import type { EventJob } from './event-job.js';

export interface RegistrationDependencies {
  orm: Orm;
  reactors: ReactorDirectory;
}

interface Registration {
  job: EventJob;
  outcome: ReactionOutcome;
}

/**
 * The event worker's first step (decisions.md §5): store a batch of accepted events and grant
 * their POINTS in one PostgreSQL transaction, which sets `registeredAt`. Safe to run twice for
 * the same jobs (a retry, a stalled job, a crash between commit and acknowledgement): events are
 * inserted with ON CONFLICT (id) DO NOTHING, and only the events this run inserted write ledger
 * entries and move wallets, so nothing is stored or granted twice.
 */
export async function registerEvents(deps: RegistrationDependencies, jobs: EventJob[]): Promise<void> {
  const em = deps.orm.em.fork();
  const registrations = await computeReactions(em, deps.reactors, jobs);
  await em.transactional(async (tx) => {
    const knex = tx.getKnex();
    const transaction = tx.getTransactionContext();
    const inserted = await knex
      .insert(registrations.map(({ job, outcome }) => eventRow(job, outcome)))
      .into('event')
      .onConflict('id')
      .ignore()
      .returning('id')
      .transacting(transaction);
    const newIds = new Set(inserted.map((row: { id: string | number }) => Number(row.id)));
    const granted = registrations.filter(({ job, outcome }) => newIds.has(job.id) && job.userId && outcome.totalPoints > 0);
    if (granted.length === 0) return;
    await knex.insert(granted.flatMap(ledgerRows)).into('ledger_entry').transacting(transaction);
    await knex
      .insert(walletDeltas(granted))
      .into('wallet')
      .onConflict('user_id')
      .merge({
        points: knex.raw('wallet.points + excluded.points'),
        lifetime_earn: knex.raw('wallet.lifetime_earn + excluded.lifetime_earn'),
        updated_at: knex.raw('excluded.updated_at'),
      })
      .transacting(transaction);
  });
}

/** The asynchronous reactions are dispatched: stamp `reactedAt` (once; a redelivery keeps the first). */
export async function markReacted(orm: Orm, eventIds: number[]): Promise<void> {
  await orm.em.fork().getKnex()('event').whereIn('id', eventIds).whereNull('reacted_at').update({ reacted_at: new Date() });
}

/**
 * The reactions of each job. Members are loaded, in one query, only for the events whose reactors
 * read them; the service subject has no wallet, so its events are stored but never worth points.
 */
async function computeReactions(em: EntityManager, reactors: ReactorDirectory, jobs: EventJob[]): Promise<Registration[]> {
  const reactorsOf = await Promise.all(jobs.map((job) => (job.userId ? reactors.forEventType(job.tenantId, job.eventTypeName) : [])));
  const readers = jobs.filter((job, index) => reactorsOf[index]!.some((reactor) => reactor.readsUser));
  const userIds = [...new Set(readers.map((job) => job.userId!))];
  const users = new Map((userIds.length ? await em.find(User, { id: { $in: userIds } }) : []).map((user) => [user.id, userView(user)]));
  return Promise.all(
    jobs.map(async (job, index) => {
      if (!job.userId) return { job, outcome: { reactions: [], totalPoints: 0, activatedReactors: [] } };
      const facts = { event: eventFacts(job), payload: job.payload, user: users.get(job.userId) ?? null };
      return { job, outcome: await react(reactorsOf[index]!, facts) };
    }),
  );
}

/** The `event` fact of reactor conditions, and the document PATH arguments read. */
export function eventFacts(job: Pick<EventJob, 'id' | 'eventTypeName' | 'reportedAt' | 'occurredAt'>): Record<string, unknown> {
  return { id: job.id, type: job.eventTypeName, reportedAt: job.reportedAt, occurredAt: job.occurredAt };
}

function eventRow(job: EventJob, outcome: ReactionOutcome) {
  return {
    id: job.id,
    tenant_id: job.tenantId,
    type_id: job.eventTypeId,
    user_id: job.userId,
    payload: JSON.stringify(job.payload),
    reported_at: job.reportedAt,
    occurred_at: job.occurredAt,
    registered_at: new Date(),
    reacted_at: null,
    reactions: JSON.stringify(outcome.reactions),
    total_points: outcome.totalPoints,
  };
}

/** One EARN entry per activated reactor with points, its cause the (event, reactor) pair. */
function ledgerRows({ job, outcome }: Registration) {
  const byReactor = new Map<string, number>();
  for (const reaction of outcome.reactions) byReactor.set(reaction.reactorId, (byReactor.get(reaction.reactorId) ?? 0) + reaction.amount);
  return [...byReactor].filter(([, points]) => points > 0).map(([reactorId, points]) => ({
    id: randomUUID(),
    tenant_id: job.tenantId,
    user_id: job.userId,
    kind: 'EARN',
    points,
    event_id: job.id,
    reactor_id: reactorId,
    created_at: new Date(),
  }));
}

function walletDeltas(granted: Registration[]) {
  const byUser = new Map<string, { user_id: string; tenant_id: string; points: number; lifetime_earn: number; updated_at: Date }>();
  for (const { job, outcome } of granted) {
    const row = byUser.get(job.userId!) ?? { user_id: job.userId!, tenant_id: job.tenantId, points: 0, lifetime_earn: 0, updated_at: new Date() };
    row.points += outcome.totalPoints;
    row.lifetime_earn += outcome.totalPoints;
    byUser.set(job.userId!, row);
  }
  return [...byUser.values()];
}
