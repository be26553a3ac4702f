import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** The body of request number n: every request differs, as a fleet's transactions do. */
  body: (n: number) => unknown;
  connections: number;
  durationSeconds: number;
  /** Requests per second offered across all connections; unset: as fast as the server answers. */
  overallRate?: number;
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

/** One run of autocannon (keep-alive connections, latencies corrected for coordinated omission). */
export async function fireLoad(options: LoadOptions): Promise<LoadFigures> {
  let n = 0;
  const result = await autocannon({
    url: options.url,
    method: 'POST',
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    headers: { 'Content-Type': 'application/json', ...options.headers },
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(options.body(n++)) }) }],
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
