// Issue 12's goals for the long-tail scenarios, checked on the figures of one run. The full
// catalogue's are set against the Iconify API measured on the machine the issue was written on
// (search misses 158 req/s, single icons 11,286 req/s), so here they read as absolute figures;
// when the bench runs the Iconify API beside the gateway (BENCH_ICONIFY_API), the issue's own
// ratios are checked too, on this machine, in the same rounds.
import type { Goal, ScenarioResult } from './report.ts';
import { formatInt, formatMs, formatRatio } from './report.ts';

interface RateGoal {
  id: string;
  /** Full catalogue (PostgreSQL) and embedded (PGlite demo catalogue) req/s. */
  fullRps: number;
  embeddedRps: number;
  /** Full catalogue p99, ms. */
  fullP99Ms?: number;
}

const RATE_GOALS: readonly RateGoal[] = [
  { id: 'search-miss', fullRps: 395, embeddedRps: 300, fullP99Ms: 60 }, // 2.5 x Iconify's 158
  { id: 'single-miss', fullRps: 4_000, embeddedRps: 1_500, fullP99Ms: 15 }, // 0.35 x Iconify's 11,286
  { id: 'list-miss', fullRps: 1_500, embeddedRps: 600 },
];
/**
 * Ratios to the Iconify API, side by side: the gateway's req/s at least `ratio` times its, with
 * p99 under `p99Ms` where the goal sets one. Issue 12's on the REST API's misses; issue 47's on
 * Iconify's protocol itself, the gateway's callers anonymous as the Iconify API's are.
 */
const ICONIFY_RATIO_GOALS: readonly { id: string; ratio: number; p99Ms?: number }[] = [
  { id: 'search-miss', ratio: 2.5, p99Ms: 60 },
  { id: 'single-miss', ratio: 0.35, p99Ms: 15 },
  { id: 'iconify-data', ratio: 1, p99Ms: 20 },
  { id: 'iconify-single', ratio: 0.25 },
  { id: 'iconify-svg', ratio: 1 },
  { id: 'iconify-search', ratio: 3 },
];
/** Issue 47: the gateway's resident memory after the runs at most this share of the Iconify API's. */
export const ICONIFY_MEMORY_RATIO_GOAL = 0.6;
export const ZIPF_MAX_GOAL_MS = 100;
export const LONG_TAIL_RSS_GOAL_MB = { full: 300, embedded: 350 } as const;

export function longTailGoals(results: ScenarioResult[], isDemoCatalogue: boolean): Goal[] {
  const goals: Goal[] = [];
  const byId = new Map(results.map((result) => [result.scenario.id, result]));
  for (const goal of RATE_GOALS) {
    const result = byId.get(goal.id);
    if (!result) continue;
    const { requestsPerSecond, p99 } = result.gateway;
    const detail = `${formatInt(requestsPerSecond)} req/s, p99 ${formatMs(p99)} ms`;
    const full = goal.fullP99Ms === undefined ? '' : ` with p99 under ${goal.fullP99Ms} ms`;
    goals.push({
      text: `${result.scenario.label}: >= ${formatInt(goal.fullRps)} req/s${full} (full catalogue)`,
      met: requestsPerSecond >= goal.fullRps && (goal.fullP99Ms === undefined || p99 < goal.fullP99Ms),
      detail,
      informational: isDemoCatalogue,
    });
    goals.push({
      text: `${result.scenario.label}: >= ${formatInt(goal.embeddedRps)} req/s (embedded demo catalogue)`,
      met: requestsPerSecond >= goal.embeddedRps,
      detail,
      informational: !isDemoCatalogue,
    });
  }
  for (const goal of ICONIFY_RATIO_GOALS) {
    const result = byId.get(goal.id);
    if (!result?.iconify) continue;
    const { requestsPerSecond, p99 } = result.gateway;
    const theirs = result.iconify.stats.requestsPerSecond;
    goals.push({
      text: `${result.scenario.label}: >= ${goal.ratio}x the Iconify API's req/s side by side${goal.p99Ms === undefined ? '' : `, with p99 under ${goal.p99Ms} ms`} (full catalogue)`,
      met: requestsPerSecond >= goal.ratio * theirs && (goal.p99Ms === undefined || p99 < goal.p99Ms),
      detail: `${formatInt(requestsPerSecond)} against ${formatInt(theirs)} req/s (${formatRatio(requestsPerSecond / Math.max(1, theirs))}x), p99 ${formatMs(p99)} ms`,
      informational: isDemoCatalogue,
    });
  }
  const zipf = byId.get('search-zipf');
  if (zipf) {
    goals.push({
      text: `${zipf.scenario.label}: max latency under ${ZIPF_MAX_GOAL_MS} ms (misses do not stall cached requests)`,
      met: zipf.gateway.max < ZIPF_MAX_GOAL_MS,
      detail: `max ${formatMs(zipf.gateway.max)} ms, p99 ${formatMs(zipf.gateway.p99)} ms; cached responses alone p99 ${formatMs(zipf.gateway.cached.p99)} / max ${formatMs(zipf.gateway.cached.max)} ms, misses alone p99 ${formatMs(zipf.gateway.uncached.p99)} / max ${formatMs(zipf.gateway.uncached.max)} ms`,
    });
  }
  const after = results.flatMap((result) => (result.longTail?.memory ? [result.longTail.memory] : []));
  if (after.length) {
    const last = after.at(-1)!;
    const peak = Math.max(...after.map((memory) => memory.peakKb));
    const detail = `${formatInt(last.rssKb / 1024)} MB after the last long-tail scenario, peak ${formatInt(peak / 1024)} MB`;
    goals.push(
      { text: `gateway resident memory under ${LONG_TAIL_RSS_GOAL_MB.full} MB after the long tail (full catalogue)`, met: last.rssKb / 1024 < LONG_TAIL_RSS_GOAL_MB.full, detail, informational: isDemoCatalogue },
      { text: `gateway resident memory under ${LONG_TAIL_RSS_GOAL_MB.embedded} MB after the long tail (embedded)`, met: last.rssKb / 1024 < LONG_TAIL_RSS_GOAL_MB.embedded, detail, informational: !isDemoCatalogue },
    );
  }
  return goals;
}
