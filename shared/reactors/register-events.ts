import type { Knex } from 'knex';
import type { Counter, Histogram } from 'prom-client';
import { bigintArray } from '../platform/db/bigint-array.js';
import { earn, type CutEarning, type Earning } from '../ledger/ledger.js';
import {
  lockReviewedReceipts,
  reverseRejectedReceiptPoints,
  reviewedReceipts,
} from '../receipts/reverse-rejected-receipts.js';
import type { Orm } from '../platform/db/orm.js';
import { LONG_DURATION_BUCKETS, type Metrics } from '../platform/metrics/metrics.js';
import { computeReactions, type Registration } from './compute-reactions.js';
import { reactionWebhookIds } from './react.js';
import type { ReactorDirectory } from './reactor-directory.js';
import { grantVouchers } from './voucher-reactions.js';
import type { WebhookSubscriptions } from '../webhooks/webhook-subscriptions.js';
import type { StoredReaction } from '../events/stored-reaction.js';
import type { Clock } from '../platform/async/clock.js';
import type { VoucherCodes } from '../rewards/voucher-codes.js';
import type { EventJob } from '../events/event-job.js';

export interface RegistrationDependencies {
  orm: Orm;
  reactors: ReactorDirectory;
  subscriptions: WebhookSubscriptions;
  metrics: RegistrationMetrics;
  /** The codes of the vouchers VOUCHER reactions give. */
  codes: VoucherCodes;
  /** When those vouchers are obtained: read once per batch. */
  clock: Clock;
}

/** What registration counts, once per event and point: only what a committed run inserted (docs/operations.md#metrics). */
export interface RegistrationMetrics {
  lag: Histogram;
  pointsGranted: Counter;
}

export function registrationDependencies(
  context: Omit<RegistrationDependencies, 'subscriptions' | 'metrics' | 'codes'> & {
    webhooks: WebhookSubscriptions;
    metrics: Metrics;
    voucherCodes: VoucherCodes;
  },
): RegistrationDependencies {
  return {
    orm: context.orm,
    reactors: context.reactors,
    subscriptions: context.webhooks,
    metrics: registrationMetrics(context.metrics),
    codes: context.voucherCodes,
    clock: context.clock,
  };
}

export function registrationMetrics(metrics: Metrics): RegistrationMetrics {
  return {
    lag: metrics.histogram({
      name: 'tally_event_registration_lag_seconds',
      help: 'From an event reported (reportedAt) to its registration (registeredAt), per event registered',
      buckets: LONG_DURATION_BUCKETS,
    }),
    pointsGranted: metrics.counter({
      name: 'tally_points_granted_total',
      help: "Points granted to members by registered events' reactors (EARN ledger entries)",
    }),
  };
}

/** What is left to do for a registered event: its webhook deliveries, the webhooks its WEBHOOK reactions name among them. */
export interface PendingReactions {
  webhookIds: string[];
}

/**
 * The event worker's first step (docs/events.md#registration-and-reactions): store a batch of
 * accepted events and grant their POINTS and VOUCHER reactions in one PostgreSQL transaction, which
 * sets `registeredAt`. Safe to run twice for the same jobs (a retry, a stalled job, a crash between
 * commit and acknowledgement): events are inserted with ON CONFLICT (id) DO NOTHING, and only the
 * events this run inserted write ledger entries, move wallets and give vouchers, so nothing is
 * stored or granted twice. An
 * event that no webhook takes, and no WEBHOOK reaction names one for, has no asynchronous
 * reactions: its `reactedAt` is its `registeredAt`, set in the same insert rather than by an
 * update of every row afterwards.
 * Resolves, for each job of the batch in order, to its asynchronous reactions if they are still to
 * run, or undefined: for an event an earlier run registered, if that run stopped short of them.
 * Which webhooks take an event is read from the cached subscriptions as the batch is prepared: a
 * webhook created since takes the events after it.
 */
export async function registerEvents(
  deps: RegistrationDependencies,
  batch: EventJob[],
): Promise<(PendingReactions | undefined)[]> {
  // A job fetched twice into one batch (a stalled job run again) is registered once.
  const jobs = [...new Map(batch.map((job) => [job.id, job])).values()];
  const em = deps.orm.em.fork();
  const registrations = await computeReactions(em, deps, jobs);
  // Each table gets its whole batch as one JSON parameter, unpacked by PostgreSQL: thousands of
  // bound parameters per batch cost the worker more CPU than the rest of registration together.
  const receipts = reviewedReceipts(jobs);
  const now = new Date(deps.clock.now());
  const registered = await em.getKnex().transaction(async (trx) => {
    await lockReviewedReceipts(
      trx,
      receipts,
      jobs.flatMap((job) => (job.userId ? [{ tenantId: job.tenantId, userId: job.userId }] : [])),
      now,
    );
    const inserted = await trx.raw<{ rows: { id: string; lag_seconds: number }[] }>(
      `insert into event (id, tenant_id, type_id, user_id, payload, reported_at, occurred_at, registered_at, reacted_at, reactions, total_points)
       select id, tenant_id, type_id, user_id, payload, reported_at, occurred_at, now(), case when awaits_reactions is false then now() end, reactions, total_points
         from jsonb_to_recordset(?::jsonb) as r(id bigint, tenant_id uuid, type_id uuid, user_id uuid, payload jsonb,
                                               reported_at timestamptz, occurred_at timestamptz, awaits_reactions boolean, reactions jsonb, total_points bigint)
       on conflict (id) do nothing returning id, extract(epoch from registered_at - reported_at)::float8 as lag_seconds`,
      [JSON.stringify(registrations.map(eventRow))],
    );
    const newIds = new Set(inserted.rows.map((row) => Number(row.id)));
    const fresh = registrations.filter(({ job }) => newIds.has(job.id));
    const earned = await earn(trx, fresh.flatMap(earnings), now);
    await recordCuts(trx, fresh, earned.cut);
    await grantVouchers(trx, deps.codes, fresh, now);
    await reverseRejectedReceiptPoints(
      trx,
      receipts.filter((receipt) => newIds.has(receipt.eventId)),
      now,
    );
    return {
      newIds,
      lags: inserted.rows.map((row) => row.lag_seconds),
      granted: earned.granted,
      unreactedEarlier: await unreacted(
        trx,
        jobs.filter((job) => !newIds.has(job.id)),
      ),
    };
  });
  // Counted after the commit, from what this run inserted: a batch run again counts nothing twice.
  for (const lag of registered.lags) deps.metrics.lag.observe(Math.max(0, lag));
  if (registered.granted > 0) deps.metrics.pointsGranted.inc(registered.granted);
  const pending = new Map<number, PendingReactions>();
  for (const { job, webhookIds, awaitsReactions } of registrations) {
    if (registered.newIds.has(job.id)) {
      if (awaitsReactions) pending.set(job.id, { webhookIds });
    } else {
      const stored = registered.unreactedEarlier.get(job.id);
      if (stored) pending.set(job.id, { webhookIds: reactionWebhookIds(stored) });
    }
  }
  return batch.map((job) => pending.get(job.id));
}

/**
 * The earn cap's cuts, told where the event's reactions are read (docs/points.md#caps): each POINTS
 * reaction of a cut reactor keeps in `requestedAmount` what it computed and in `amount` its share
 * of what was granted, in reaction order, and the event's `totalPoints` is what it granted.
 */
async function recordCuts(trx: Knex.Transaction, registrations: Registration[], cuts: CutEarning[]): Promise<void> {
  if (cuts.length === 0) return;
  const cutOf = new Map(cuts.map((cut) => [`${cut.eventId} ${cut.reactorId}`, cut]));
  const rows = registrations.flatMap(({ job, outcome }) => {
    const left = new Map<string, number>();
    let cutHere = false;
    const reactions = outcome.reactions.map((reaction) => {
      const cut = cutOf.get(`${job.id} ${reaction.reactorId}`);
      if (reaction.type !== 'POINTS' || !cut) return reaction;
      cutHere = true;
      const available = left.get(reaction.reactorId) ?? cut.granted;
      const amount = Math.min(available, reaction.amount);
      left.set(reaction.reactorId, available - amount);
      return { ...reaction, amount, requestedAmount: reaction.amount };
    });
    if (!cutHere) return [];
    outcome.reactions = reactions;
    outcome.totalPoints = reactions.reduce(
      (sum, reaction) => sum + (reaction.type === 'POINTS' ? reaction.amount : 0),
      0,
    );
    return [{ id: job.id, tenant_id: job.tenantId, reactions, total_points: outcome.totalPoints }];
  });
  await trx.raw(
    `update event set reactions = r.reactions, total_points = r.total_points
       from jsonb_to_recordset(?::jsonb) as r(id bigint, tenant_id uuid, reactions jsonb, total_points bigint)
      where event.tenant_id = r.tenant_id and event.id = r.id`,
    [JSON.stringify(rows)],
  );
}

/**
 * Events of a batch as (tenant, id) pairs, for `(tenant_id, id) in (select * from unnest(?::uuid[], ?::bigint[]))`:
 * the batch mixes tenants, and each event is looked for within its own.
 */
function tenantEventPairs(events: { id: number; tenantId: string }[]): [string[], string] {
  return [events.map((event) => event.tenantId), bigintArray(events.map((event) => event.id))];
}

/** Of events an earlier run registered, those whose asynchronous reactions it did not finish, with their stored reactions. */
async function unreacted(trx: Knex.Transaction, earlier: EventJob[]): Promise<Map<number, StoredReaction[]>> {
  if (earlier.length === 0) return new Map();
  const rows = await trx.raw<{ rows: { id: string; reactions: StoredReaction[] }[] }>(
    'select id, reactions from event where (tenant_id, id) in (select * from unnest(?::uuid[], ?::bigint[])) and reacted_at is null',
    tenantEventPairs(earlier),
  );
  return new Map(rows.rows.map((row) => [Number(row.id), row.reactions]));
}

/** The asynchronous reactions are dispatched: stamp `reactedAt` (once; a redelivery keeps the first). */
export async function markReacted(orm: Orm, events: { id: number; tenantId: string }[]): Promise<void> {
  await orm.em
    .fork()
    .getKnex()
    .raw(
      'update event set reacted_at = now() where (tenant_id, id) in (select * from unnest(?::uuid[], ?::bigint[])) and reacted_at is null',
      tenantEventPairs(events),
    );
}

function eventRow({ job, outcome, awaitsReactions }: Registration) {
  return {
    id: job.id,
    awaits_reactions: awaitsReactions,
    tenant_id: job.tenantId,
    type_id: job.eventTypeId,
    user_id: job.userId,
    payload: job.payload,
    reported_at: job.reportedAt,
    occurred_at: job.occurredAt,
    reactions: outcome.reactions,
    total_points: outcome.totalPoints,
  };
}

/**
 * What an event's member earns: one earning per activated reactor with points, its cause the
 * (event, reactor) pair. The service subject has no wallet and earns nothing.
 */
function earnings({ job, outcome }: Registration): Earning[] {
  if (!job.userId || outcome.totalPoints <= 0) return [];
  const byReactor = new Map<string, number>();
  for (const reaction of outcome.reactions) {
    if (reaction.type === 'POINTS')
      byReactor.set(reaction.reactorId, (byReactor.get(reaction.reactorId) ?? 0) + reaction.amount);
  }
  return [...byReactor].map(([reactorId, points]) => ({
    tenantId: job.tenantId,
    userId: job.userId!,
    points,
    cause: { eventId: job.id, reactorId },
  }));
}
