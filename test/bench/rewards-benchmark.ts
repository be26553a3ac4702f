import { randomBytes, randomUUID } from 'node:crypto';
import { adjust } from '../../shared/ledger/spend-and-adjust.js';
import { CEILING_PATH, type BenchWorld } from './bench-world.js';
import { fireIngestLoad } from './ingest-benchmark.js';
import { fireLoad, firePacedLoad, type LoadFigures } from './http-load.js';

/** Members buying at once, each on its own connection with its own token (issue 20). */
export const BUYERS = 50;
/** The pool each round's reward is given: every purchase of the round takes one of its codes. */
export const POOL_SIZE = 10_000;

export interface RewardsFigures {
  ceiling: LoadFigures[];
  purchases: LoadFigures[];
  validations: LoadFigures[];
}

/**
 * Purchases and till validations (issue 20), on the API process alone: each round gives a new
 * reward (1 point) a pool of POOL_SIZE codes and lets BUYERS members buy from it as fast as the
 * server answers, beside a run of the bare ceiling route on the same connections. Then the codes
 * those purchases handed out are validated at a steady offered rate, each once.
 */
export async function benchmarkRewards(
  world: BenchWorld,
  port: number,
  options: { rounds: number; seconds: number; validateRate: number; validateSeconds: number },
): Promise<RewardsFigures> {
  const admin = await world.adminToken(['admin:rewards', 'admin:vouchers']);
  const buyers = world.members.slice(0, BUYERS);
  const tokens = await Promise.all(buyers.map((member) => world.userToken(member.authIdentifier)));
  await fundBuyers(world, buyers);
  const call = apiCaller(world, port, admin);
  const buy = async (tag: string, seconds: number) => {
    const reward = await call('/v1/rewards', { type: 'VOUCHER', name: `Bench coffee ${tag}`, price: 1, cost: 2.5 });
    const codes = Array.from({ length: POOL_SIZE }, (_, index) => `${tag}-${index}-${randomBytes(4).toString('hex')}`);
    await call(`/v1/rewards/${reward.id as string}/codes`, { codes });
    return fireLoad({
      url: `http://127.0.0.1:${port}/v1/purchases`,
      headers: { 'X-Api-Key': world.apiKey },
      headersFor: (n) => ({ Authorization: `Bearer ${tokens[n % tokens.length]!}` }),
      body: () => ({ resource: { type: 'REWARD', id: reward.id } }),
      connections: BUYERS,
      durationSeconds: seconds,
    });
  };

  // Warm-up: JIT, connection pools, the member cache.
  await buy('warm-up', 2);
  const figures: RewardsFigures = { ceiling: [], purchases: [], validations: [] };
  for (let round = 0; round < options.rounds; round++) {
    await world.upkeep();
    figures.ceiling.push(await fireIngestLoad(world, port, CEILING_PATH, `rewards-ceiling-${round}`, options.seconds));
    const purchases = await buy(`round-${round}`, options.seconds);
    if (purchases.errors) throw new Error(`POST /v1/purchases failed ${purchases.errors} requests`);
    figures.purchases.push(purchases);
  }

  await world.upkeep();
  const codes = await unvalidatedCodes(world);
  const perRound = Math.round(options.validateRate * options.validateSeconds);
  for (let round = 0; round < options.rounds && codes.length >= (round + 1) * perRound; round++) {
    const batch = codes.slice(round * perRound, (round + 1) * perRound);
    figures.validations.push(
      await firePacedLoad({
        url: `http://127.0.0.1:${port}/v1/commands/validate_voucher`,
        headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${admin}` },
        body: (n) => ({ code: batch[n] }),
        ratePerSecond: options.validateRate,
        maxConnections: 50,
        durationSeconds: options.validateSeconds,
      }),
    );
  }
  return figures;
}

/** Points enough for every purchase the rounds can make, as an admin's adjustment would give them. */
async function fundBuyers(world: BenchWorld, buyers: BenchWorld['members']): Promise<void> {
  const knex = world.context.orm.em.fork().getKnex();
  for (const buyer of buyers)
    await knex.transaction((trx) =>
      adjust(trx, {
        entryId: randomUUID(),
        tenantId: world.tenantId,
        userId: buyer.id,
        points: 1_000_000_000,
        cause: { reason: 'benchmark', actor: 'bench' },
        at: new Date(),
      }),
    );
}

/** The codes of the vouchers the purchases made, opened as the till would be shown them. */
async function unvalidatedCodes(world: BenchWorld): Promise<string[]> {
  const rows = await world.context.orm.em
    .fork()
    .getKnex()
    .raw<{ rows: { id: string; sealed_code: string }[] }>(
      `select rc.id, rc.sealed_code from voucher v join reward_code rc on rc.id = v.code_id
        where v.tenant_id = ? and v.burned_at is null order by v.created_at`,
      [world.tenantId],
    );
  return rows.rows.map((row) => world.context.voucherCodes.open(world.tenantId, row.id, row.sealed_code)!);
}

function apiCaller(world: BenchWorld, port: number, adminToken: string) {
  return async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
}
