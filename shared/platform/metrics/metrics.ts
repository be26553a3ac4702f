import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

/**
 * The process's Prometheus metrics (docs/operations.md#metrics), in a registry of its own so tests
 * never share counters. The platform's own are fields; a feature defines its counters where it
 * counts them and registers them here through `counter` and `histogram`, so this module names no
 * feature.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  jobOutcomes: Counter<'queue' | 'outcome'>;
  jobDuration: Histogram<'queue'>;
  queueDepth: Gauge<'queue' | 'state'>;
  /** The counter of this name, made on first use: every caller of one name shares it. */
  counter<Label extends string>(configuration: MetricConfiguration<CounterConfiguration<Label>>): Counter<Label>;
  /** The histogram of this name, made on first use: every caller of one name shares it. */
  histogram<Label extends string>(configuration: MetricConfiguration<HistogramConfiguration<Label>>): Histogram<Label>;
}

/**
 * The counter of this name in `registry`, made on first use: every caller of one name shares it
 * (an app built twice on one context registers its counters once).
 */
export function counterIn<Label extends string>(
  registry: Registry,
  configuration: MetricConfiguration<CounterConfiguration<Label>>,
): Counter<Label> {
  return (
    (registry.getSingleMetric(configuration.name) as Counter<Label> | undefined) ??
    new Counter({ ...configuration, registers: [registry] })
  );
}

/** A metric's name, help, labels (and buckets): the registry is the platform's. */
export type MetricConfiguration<Configuration> = Omit<Configuration, 'registers' | 'collect'>;

/**
 * Seconds, from a millisecond to two minutes: a job runs from under a millisecond (an audit entry)
 * to tens of seconds (an image read), and an event waits from milliseconds to a minute (a backlog,
 * a dead worker's jobs taken up again) between its report and its registration.
 */
export const LONG_DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export function createMetrics(): Metrics {
  const registry = new Registry();
  // CPU, resident memory, heap spaces, event-loop lag, GC pauses, handles, under their usual names
  // (`process_cpu_seconds_total`, `nodejs_eventloop_lag_seconds`, …), so the dashboards made for them work.
  collectDefaultMetrics({ register: registry });
  const counter = <Label extends string>(configuration: MetricConfiguration<CounterConfiguration<Label>>) =>
    counterIn(registry, configuration);
  const histogram = <Label extends string>(configuration: MetricConfiguration<HistogramConfiguration<Label>>) =>
    (registry.getSingleMetric(configuration.name) as Histogram<Label> | undefined) ??
    new Histogram({ ...configuration, registers: [registry] });
  return {
    registry,
    counter,
    histogram,
    httpDuration: histogram({
      name: 'tally_http_request_duration_seconds',
      // Its `_count` series is the number of requests answered: no separate counter to keep.
      help: 'HTTP request latency, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    }),
    jobOutcomes: counter({
      name: 'tally_jobs_total',
      help: 'Job runs finished by the workers of this process, by queue and outcome (completed, failed, retried)',
      labelNames: ['queue', 'outcome'],
    }),
    jobDuration: histogram({
      name: 'tally_job_duration_seconds',
      help: 'How long a job run took in the workers of this process, whatever its outcome, by queue',
      labelNames: ['queue'],
      buckets: LONG_DURATION_BUCKETS,
    }),
    queueDepth: new Gauge({
      name: 'tally_queue_jobs',
      help: 'Jobs waiting in or held by each queue, by state, read from Redis at scrape time',
      labelNames: ['queue', 'state'],
      registers: [registry],
    }),
  };
}
