// Per-request metrics are counted in maps and handed to prom-client on scrape
// (observability/metrics.ts): every request must be counted exactly once, however requests and
// scrapes interleave.
import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from '../../gateway/metrics/metrics.ts';

function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GatewayMetrics', () => {
  it('counts each request exactly once across scrapes, and repeated scrapes do not add', async () => {
    const metrics = new GatewayMetrics();
    const ok = 'icon_gateway_requests_total{route="/categories",method="GET",status="200"}';
    const hits = 'icon_gateway_response_cache_total{route="/categories",result="hit"}';
    const latencyCount = 'icon_gateway_request_duration_seconds_count{route="/categories"}';
    for (let i = 0; i < 3; i++) {
      metrics.request('/categories', 'GET', 200, 0.0004);
      metrics.responseCacheLookup('/categories', true);
    }
    metrics.request('/categories', 'GET', 429, 0.0002);
    let text = (await metrics.exposition()).body;
    expect([value(text, ok), value(text, hits), value(text, latencyCount)]).toEqual([3, 3, 4]);
    expect(value(text, 'icon_gateway_requests_total{route="/categories",method="GET",status="429"}')).toBe(1);
    metrics.request('/categories', 'GET', 200, 0.03);
    metrics.responseCacheLookup('/categories', false);
    for (let scrape = 0; scrape < 2; scrape++) {
      text = (await metrics.exposition()).body;
      expect([value(text, ok), value(text, hits), value(text, latencyCount)]).toEqual([4, 3, 5]);
      expect(value(text, 'icon_gateway_response_cache_total{route="/categories",result="miss"}')).toBe(1);
      expect(value(text, 'icon_gateway_request_duration_seconds_bucket{le="0.025",route="/categories"}')).toBe(4);
      expect(value(text, 'icon_gateway_request_duration_seconds_bucket{le="0.05",route="/categories"}')).toBe(5);
    }
    // Two scrapes at once see the same counts.
    const [first, second] = await Promise.all([metrics.exposition(), metrics.exposition()]);
    expect([value(first.body, ok), value(second.body, ok)]).toEqual([4, 4]);
  });
});
