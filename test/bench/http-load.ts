import autocannon from 'autocannon';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { round } from './stats.js';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** The body of request number n: every request differs, as a fleet's transactions do. */
  body: (n: number) => unknown;
  /** Headers of request number n beside `headers`: one caller's token each, when many callers load the server. */
  headersFor?: (n: number) => Record<string, string>;
  durationSeconds: number;
}

export interface LoadFigures {
  /** Answered 2xx per second. */
  acceptedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  accepted: number;
  refused: number;
  errors: number;
}

/**
 * As fast as the server answers, over `connections` keep-alive connections, each sending its next
 * request when the last is answered (autocannon): the most a server accepts.
 */
export async function fireLoad(options: LoadOptions & { connections: number }): Promise<LoadFigures> {
  let n = 0;
  const result = await autocannon({
    url: options.url,
    method: 'POST',
    connections: options.connections,
    duration: options.durationSeconds,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    requests: [
      {
        setupRequest: (request) => {
          const current = n++;
          const headers = options.headersFor ? { ...request.headers, ...options.headersFor(current) } : request.headers;
          return { ...request, headers, body: JSON.stringify(options.body(current)) };
        },
      },
    ],
  });
  return {
    acceptedPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    accepted: result['2xx'],
    refused: result.non2xx,
    errors: result.errors,
  };
}

/**
 * A steady offered load: request n is due at start + n / rate, whether or not earlier ones were
 * answered, and its latency runs from when it was due, so a server that falls behind shows in the
 * figures instead of slowing the load (no coordinated omission). autocannon's `overallRate` offers
 * something else: each connection sends its share of a second as fast as it is answered, then
 * waits for the next second, so a whole second's requests arrive together at its start.
 * Requests due while `maxConnections` are all busy wait for one, and that wait is part of their
 * latency. The rate is requests answered 2xx over the time until the last answer.
 */
export async function firePacedLoad(
  options: LoadOptions & { ratePerSecond: number; maxConnections: number },
): Promise<LoadFigures> {
  const url = new URL(options.url);
  const pool = new Pool(url.origin, { connections: options.maxConnections });
  const headers = { 'content-type': 'application/json', ...options.headers };
  const total = Math.round(options.ratePerSecond * options.durationSeconds);
  const intervalMs = 1000 / options.ratePerSecond;
  const latencies: number[] = [];
  let refused = 0;
  let errors = 0;
  const send = async (n: number, dueAt: number) => {
    try {
      const response = await pool.request({
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: options.headersFor ? { ...headers, ...options.headersFor(n) } : headers,
        body: JSON.stringify(options.body(n)),
      });
      await response.body.dump();
      if (response.statusCode >= 200 && response.statusCode < 300) latencies.push(performance.now() - dueAt);
      else refused++;
    } catch {
      errors++;
    }
  };

  const start = performance.now();
  const answers: Promise<void>[] = [];
  while (answers.length < total) {
    const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
    while (answers.length < due) answers.push(send(answers.length, start + answers.length * intervalMs));
    await sleep(1);
  }
  await Promise.all(answers);
  const elapsedSeconds = (performance.now() - start) / 1000;
  await pool.close();

  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN);
  return {
    acceptedPerSecond: latencies.length / elapsedSeconds,
    p50Ms: percentile(0.5),
    p99Ms: percentile(0.99),
    accepted: latencies.length,
    refused,
    errors,
  };
}
