// The bench's comparison of two gateways: how far apart the rounds of one pair fall; and the
// Iconify API measured beside the gateway: its columns and issue 12's ratios to it.
import { describe, expect, it } from 'vitest';
import { emptyCacheCounts } from '../../bench/cache-header.ts';
import type { RunStats } from '../../bench/load.ts';
import { longTailGoals } from '../../bench/long-tail-goals.ts';
import { formatMiddleHalf, middleHalf, resultsTable, type ScenarioResult } from '../../bench/report.ts';
import { distinctUrls } from '../../bench/url-source.ts';

describe('bench report: the middle half of the rounds', () => {
  it('is the first to the third quartile of the round ratios, whatever their order', () => {
    expect(middleHalf([1.2, 0.8, 1.0, 1.1, 0.9])).toEqual([0.9, 1.1]);
    expect(middleHalf([1.05, 0.95, 1.01, 0.99])).toEqual([0.95, 1.01]);
  });

  it('does not reach into the outer rounds, where one noisy round lands', () => {
    const [low, high] = middleHalf([0.46, 1.0, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.7]);
    expect(low).toBeGreaterThan(0.99);
    expect(high).toBeLessThan(1.07);
  });

  it('is written for the console and the tables only from 4 rounds on', () => {
    expect(formatMiddleHalf([1.2, 0.8, 1.0, 1.1, 0.9])).toBe('0.900-1.100');
    expect(formatMiddleHalf([1.2, 0.8, 1.0])).toBeUndefined();
  });
});

describe('bench report: the Iconify API side by side (issue 12)', () => {
  const stats = (requestsPerSecond: number, p99: number): RunStats => ({
    responses: requestsPerSecond * 5,
    durationSeconds: 5,
    requestsPerSecond,
    p50: p99 / 4,
    p99,
    max: p99 * 2,
    cached: { p99: NaN, max: NaN },
    uncached: { p99, max: p99 * 2 },
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statusCodes: { '200': requestsPerSecond * 5 },
    cache: emptyCacheCounts(),
    cpuMicrosPerResponse: 1e6 / requestsPerSecond,
  });
  const result = (id: string, gateway: RunStats, iconify?: RunStats): ScenarioResult => ({
    scenario: { id, label: id, path: '/x', urls: distinctUrls(['/x']) },
    bodyBytes: 100,
    bodySummary: 'one item',
    gateway,
    plain: stats(40_000, 1),
    ...(iconify ? { iconify: { stats: iconify, roundRatios: [gateway.requestsPerSecond / iconify.requestsPerSecond] } } : {}),
  });
  const ratioGoal = (goals: ReturnType<typeof longTailGoals>, id: string) => goals.find((goal) => goal.text.startsWith(`${id}:`) && goal.text.includes('Iconify'));

  it("checks the issue's ratios against the Iconify API's req/s of the same run, p99 included", () => {
    const goals = longTailGoals(
      [
        result('search-miss', stats(400, 40), stats(150, 200)), // 2.67x
        result('single-miss', stats(3_000, 10), stats(10_000, 4)), // 0.30x
      ],
      false,
    );
    expect(ratioGoal(goals, 'search-miss')).toMatchObject({ met: true, informational: false });
    expect(ratioGoal(goals, 'search-miss')!.detail).toContain('2.667x');
    expect(ratioGoal(goals, 'single-miss')).toMatchObject({ met: false });
    const slowTail = longTailGoals([result('single-miss', stats(3_600, 16), stats(10_000, 4))], false); // 0.36x but p99 16 ms
    expect(ratioGoal(slowTail, 'single-miss')!.met).toBe(false);
    expect(ratioGoal(longTailGoals([result('single-miss', stats(3_600, 14), stats(10_000, 4))], false), 'single-miss')!.met).toBe(true);
  });

  it("checks issue 47's ratios on Iconify's protocol: icon data with its p99 bound, single icons without one", () => {
    const data = (p99: number) => ratioGoal(longTailGoals([result('iconify-data', stats(10_000, p99), stats(9_000, 3))], false), 'iconify-data')!;
    expect(data(19)).toMatchObject({ met: true });
    expect(data(21)).toMatchObject({ met: false }); // 1.11x, but p99 over 20 ms
    expect(ratioGoal(longTailGoals([result('iconify-data', stats(8_000, 5), stats(9_000, 3))], false), 'iconify-data')!.met).toBe(false);
    const single = (p99: number) => ratioGoal(longTailGoals([result('iconify-single', stats(2_600, p99), stats(10_000, 3))], false), 'iconify-single')!;
    expect(single(500)).toMatchObject({ met: true }); // 0.26x: no bound on its p99
    expect(single(500).text).not.toContain('p99');
    expect(ratioGoal(longTailGoals([result('iconify-search', stats(290, 5), stats(100, 30))], false), 'iconify-search')!.met).toBe(false); // 2.9x of 3x
  });

  it('has no ratio goal and no columns where the Iconify API did not run', () => {
    const results = [result('search-miss', stats(400, 40))];
    expect(ratioGoal(longTailGoals(results, false), 'search-miss')).toBeUndefined();
    expect(resultsTable(results)).not.toContain('Iconify');
    const withIt = resultsTable([...results, result('single-miss', stats(3_000, 10), stats(10_000, 4))]);
    expect(withIt).toContain('gateway/Iconify');
    expect(withIt).toContain('0.300');
  });
});
