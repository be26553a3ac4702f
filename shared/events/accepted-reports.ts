import { createIORedisClient, type IRedisClient, type IRedisTransaction, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { DUPLICATE_WINDOW_MS } from './duplicate-window.js';

/** What the claim script needs of one report. */
export interface ReportClaim {
  eventId: number;
  tenantId: string;
  duplicateIdentity: string;
}

/**
 * Claims each report's duplicate identity for 60 s (docs/events.md#duplicates) and, for each report
 * whose claim holds, records its event id as accepted, with its tenant, in one hash. A claim
 * already held by the same event id (the report sent again after a lost answer from Redis) holds
 * too. Answers 1 (accepted) or 0 (a duplicate) per report. KEYS: the accepted hash, then one
 * identity key per report. ARGV: the window in ms, then event id and tenant id per report.
 */
const CLAIM_COMMAND = 'claimEventReports';
const CLAIM_SCRIPT = `
local answers = {}
for i = 1, #KEYS - 1 do
  local id = ARGV[2 * i]
  local claimed = redis.call('SET', KEYS[i + 1], id, 'NX', 'PX', ARGV[1])
  if claimed or redis.call('GET', KEYS[i + 1]) == id then
    redis.call('HSET', KEYS[1], id, ARGV[2 * i + 1])
    answers[i] = 1
  else
    answers[i] = 0
  end
end
return answers
`;

/**
 * Gives back the claims of reports whose job was not queued after all: each identity key still
 * held by its report's event id is deleted, and the id leaves the accepted hash.
 * KEYS: the accepted hash, then one identity key per report. ARGV: the event id per report.
 */
const RELEASE_SCRIPT = `
for i = 1, #KEYS - 1 do
  if redis.call('GET', KEYS[i + 1]) == ARGV[i] then redis.call('DEL', KEYS[i + 1]) end
  redis.call('HDEL', KEYS[1], ARGV[i])
end
return #KEYS - 1
`;

/** BullMQ's script for a job with neither delay nor priority, under its versioned command name: the one the reports' jobs are added with. */
const ADD_JOB_COMMAND = /^addStandardJob:/;

/** What ioredis keeps of a defined script (its Script class, whose fields are not typed as public). */
interface DefinedScript {
  lua: string;
  numberOfKeys: number | null;
}

/**
 * Which reported events were accepted and are not registered yet. POST /v1/events queues the
 * reports of a moment as one job, in one MULTI with the claim script above (event-queue-writer.ts),
 * so no report is claimed without its job being queued with it, and the job carries every report
 * of the batch, duplicates included. The record this keeps tells the worker which of them
 * to register, and GET /v1/events/{id}/reactions that an unregistered id was accepted. Its keys
 * share the events queue's hash tag, so the MULTI stays in one Redis Cluster slot.
 */
export class AcceptedReports {
  private readonly acceptedKey: string;
  private readonly identityPrefix: string;
  private transactionClient: Promise<IRedisClient> | undefined;

  /**
   * `connection`: the one the events queue was made on (queue-factory.ts), raw. `transactions`: a
   * connection of the reports' MULTIs alone. ioredis copies every script defined on a connection
   * onto each MULTI made on it; on the queue's connection those are BullMQ's 64 scripts, which cost
   * 35 µs a MULTI measured alone and about 5% of POST /v1/events' CPU in place.
   */
  constructor(
    private readonly queue: Queue,
    private readonly connection: Redis,
    private readonly transactions: Redis,
  ) {
    this.acceptedKey = `${queue.qualifiedName}:accepted`;
    this.identityPrefix = `${queue.qualifiedName}:reported:`;
    // ioredis loads a defined script before a MULTI that uses it when Redis does not know it.
    transactions.defineCommand(CLAIM_COMMAND, { lua: CLAIM_SCRIPT });
  }

  /** A MULTI in the form BullMQ adds jobs to, on the transactions' connection. */
  async begin(): Promise<IRedisTransaction> {
    // A failed preparation (Redis away at startup) is tried again by the next report.
    this.transactionClient ??= this.prepareTransactions().catch((error: unknown) => {
      this.transactionClient = undefined;
      throw error;
    });
    return (await this.transactionClient).multi();
  }

  /**
   * Teaches the transactions' connection BullMQ's add script, copied from the queue's connection
   * once BullMQ has defined its scripts there, so that its name and source are the ones this
   * BullMQ calls. A BullMQ that no longer has it fails here, loudly, rather than on each MULTI.
   */
  private async prepareTransactions(): Promise<IRedisClient> {
    await this.queue.getBackend().client;
    const scripts = Object.entries(this.connection.scriptsSet as Record<string, DefinedScript>).filter(([name]) =>
      ADD_JOB_COMMAND.test(name),
    );
    if (scripts.length === 0) throw new Error('BullMQ defined no addStandardJob script on the events queue connection');
    for (const [name, script] of scripts)
      this.transactions.defineCommand(name, { lua: script.lua, numberOfKeys: script.numberOfKeys ?? undefined });
    return createIORedisClient(this.transactions);
  }

  /**
   * Loads the transactions' scripts into Redis again, after a MULTI found one missing (NOSCRIPT).
   * ioredis sends a script's source on a connection's first use of it, and EVALSHA after; outside a
   * MULTI it sends the source again when Redis answers NOSCRIPT, but inside one it does not notice,
   * so once Redis loses its scripts while the connection stays open (SCRIPT FLUSH, or a proxy that
   * moves the connection to another server) every MULTI would fail.
   */
  async reloadScripts(): Promise<void> {
    const scripts = Object.values(this.transactions.scriptsSet as Record<string, DefinedScript>);
    await Promise.all(scripts.map((script) => this.transactions.script('LOAD', script.lua)));
  }

  /** Queues the claim script on `transaction`; its answer is one 0 or 1 per claim, in order. */
  claim(transaction: IRedisTransaction, claims: ReportClaim[]): void {
    const keys = [this.acceptedKey, ...claims.map((claim) => this.identityPrefix + claim.duplicateIdentity)];
    const args = [DUPLICATE_WINDOW_MS, ...claims.flatMap((claim) => [claim.eventId, claim.tenantId])];
    transaction.runCommand(CLAIM_COMMAND, [keys.length, ...keys, ...args]);
  }

  /**
   * Undoes claims that held in a MULTI whose job BullMQ did not add: without this, the client's
   * retry of a report answered 500 would be refused as a duplicate for the rest of the window.
   */
  async release(claims: ReportClaim[]): Promise<void> {
    if (claims.length === 0) return;
    const keys = [this.acceptedKey, ...claims.map((claim) => this.identityPrefix + claim.duplicateIdentity)];
    // EVAL, not a defined script: this runs only when a job could not be queued.
    await this.connection.eval(RELEASE_SCRIPT, keys.length, ...keys, ...claims.map((claim) => claim.eventId));
  }

  /** Of these event ids, those accepted and not yet forgotten. */
  async pending(eventIds: number[]): Promise<Set<number>> {
    if (eventIds.length === 0) return new Set();
    const tenants = await this.connection.hmget(this.acceptedKey, ...eventIds.map(String));
    return new Set(eventIds.filter((_, index) => tenants[index] !== null));
  }

  /** Whether event `eventId` of this tenant was accepted and is not registered yet. */
  async isPending(tenantId: string, eventId: number): Promise<boolean> {
    return (await this.connection.hget(this.acceptedKey, String(eventId))) === tenantId;
  }

  /** Forgets registered events whose reactions are done: a job run again skips them. */
  async forget(eventIds: number[]): Promise<void> {
    if (eventIds.length > 0) await this.connection.hdel(this.acceptedKey, ...eventIds.map(String));
  }
}
