import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The process's Prometheus metrics, in a registry of its own so tests never share counters. */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  jobOutcomes: Counter<'queue' | 'outcome'>;
  queueDepth: Gauge<'queue' | 'state'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  return {
    registry,
    httpDuration: new Histogram({
      name: 'tally_http_request_duration_seconds',
      // Its `_count` series is the number of requests answered: no separate counter to keep.
      help: 'HTTP request latency, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    jobOutcomes: new Counter({
      name: 'tally_jobs_total',
      help: 'Jobs finished by the workers of this process, by queue and outcome (completed, failed, retried)',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'tally_queue_jobs',
      help: 'Jobs in each queue by state, read from Redis at scrape time',
      labelNames: ['queue', 'state'],
      registers: [registry],
    }),
  };
}
