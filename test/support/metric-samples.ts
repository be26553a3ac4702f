import type { Metrics } from '../../shared/platform/metrics/metrics.js';

/**
 * The value of one series in Prometheus text (`name{a="x",b="y"} 3`), its labels given in any
 * order; undefined when the series is absent.
 */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([key, value]) => found[key] === value))
      return Number(match[3]);
  }
  return undefined;
}

/** The same, read from a registry without HTTP. */
export async function metricValue(metrics: Metrics, name: string, labels: Record<string, string> = {}) {
  return sampleOf(await metrics.registry.getSingleMetricAsString(name), name, labels);
}
