// The latency histogram is kept by hand for speed (observability/route-latency.ts); whatever
// reads /metrics must not see a difference from prom-client's own histogram.
import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { RouteLatencyHistogram } from '../../gateway/metrics/route-latency.ts';

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

describe('RouteLatencyHistogram', () => {
  it("writes exactly what prom-client's Histogram writes for the same observations", async () => {
    const registry = new Registry();
    const reference = new Histogram({ name: 'latency_seconds', help: 'Latency, by route', labelNames: ['route'], buckets: BOUNDS, registers: [registry] });
    const ours = new RouteLatencyHistogram('latency_seconds', 'Latency, by route', BOUNDS);
    const routes = ['/icons/{ref}', '/categories', 'un"usual\\route\nname'];
    // Values on the bounds themselves (le means "less than or equal"), between them and beyond.
    const values = [...BOUNDS, 0, 0.0001, 0.0007, 0.003, 0.2, 3, 100, ...Array.from({ length: 200 }, (_, i) => (i * 0.0137) % 3)];
    values.forEach((seconds, i) => {
      const route = routes[i % routes.length]!;
      reference.observe({ route }, seconds);
      ours.observe(route, seconds);
    });
    expect(ours.exposition()).toBe(await registry.metrics());
  });

  it('writes only its header before the first observation', () => {
    expect(new RouteLatencyHistogram('x_seconds', 'X', [1]).exposition()).toBe('# HELP x_seconds X\n# TYPE x_seconds histogram\n');
  });
});
