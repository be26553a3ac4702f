import type { BenchWorld } from './bench-world.js';
import { firePacedLoad } from './http-load.js';
import { waitFor } from './wait-for.js';

export interface PreparsedFigures {
  offeredPerSecond: number;
  decidedPerSecond: number;
  /** Claim to automated review, from the stored timestamps. */
  decisionP50Ms: number;
  decisionP99Ms: number;
  /** POST /v1/receipts answered, the decision included when it came in time. */
  httpP50Ms: number;
  httpP99Ms: number;
}

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** A till's preparsed claim, `n` making each one a different receipt (no DUPLICATE). */
function preparsedClaim(world: BenchWorld, n: number, run: string) {
  const field = (value: string) => ({ value, confidence: 0.95 });
  return {
    useParser: false,
    submitter: { authIdentifier: world.members[n % world.members.length]!.authIdentifier },
    ocrConfidence: 0.94,
    serviceDate: field(yesterday()),
    serviceTime: field('12:30'),
    total: field(`${10 + (n % 50)}.50`),
    merchantName: field('Corner Shop'),
    barcode: field(`${run}-${n}`),
    lineItems: [
      { description: 'Oat milk', identifier: 'SKU-OAT', quantity: 1, unitPrice: 2.5, totalPrice: 2.5 },
      { description: 'Bread', identifier: 'SKU-BREAD', quantity: 1, unitPrice: 3, totalPrice: 3 },
    ],
  };
}

/**
 * Preparsed claims end to end (issue 5): POST /v1/receipts at a steady offered rate into the API,
 * the reviewer and event workers in their own process; each answer waits for its decision.
 */
export async function benchmarkPreparsed(
  world: BenchWorld,
  port: number,
  rate: number,
  seconds: number,
  tag: string,
): Promise<PreparsedFigures> {
  const since = new Date();
  const load = await firePacedLoad({
    url: `http://127.0.0.1:${port}/v1/receipts`,
    headers: { 'X-Api-Key': world.apiKey, Authorization: `Bearer ${world.receiptsAdmin}` },
    body: (n) => preparsedClaim(world, n, tag),
    ratePerSecond: rate,
    maxConnections: 100,
    durationSeconds: seconds,
  });
  if (load.refused || load.errors)
    throw new Error(`POST /v1/receipts refused ${load.refused} and failed ${load.errors} claims`);
  const decisions = async () => {
    const [row] = await world.context.orm.em
      .fork()
      .getConnection()
      .execute<{ claims: number; decided: number; p50: number; p99: number; span: number }[]>(
        `select count(*)::int as claims, count(v.id)::int as decided,
              percentile_cont(0.5) within group (order by extract(epoch from v.created_at - r.created_at) * 1000) as p50,
              percentile_cont(0.99) within group (order by extract(epoch from v.created_at - r.created_at) * 1000) as p99,
              extract(epoch from max(v.created_at) - min(r.created_at))::float as span
         from receipt r left join receipt_review v on v.receipt_id = r.id and v.is_automated
        where r.tenant_id = ? and r.created_at >= ?`,
        [world.tenantId, since],
      );
    return row!;
  };
  await waitFor(async () => {
    const row = await decisions();
    return row.claims >= load.accepted && row.decided === row.claims;
  }, 120_000);
  const row = await decisions();
  return {
    offeredPerSecond: rate,
    decidedPerSecond: row.decided / row.span,
    decisionP50Ms: row.p50,
    decisionP99Ms: row.p99,
    httpP50Ms: load.p50Ms,
    httpP99Ms: load.p99Ms,
  };
}
