// Latency of searchIconIds on an existing catalogue, through Prisma as the API calls it.
//   npx tsx scripts/search/latency.ts <postgresql://...> [rounds] [query...]
// Runs every query once to warm up, then `rounds` rounds of all queries (interleaved, so a
// cold cache or a noisy neighbour does not land on one query only), and prints p50/p95/max
// per query in milliseconds. Read-only: it runs searches and nothing else.
import { openDatabase } from '../../prisma/database.ts';
import { searchIconIds, type SearchRequest } from '../../resolvers/catalogue/search/index.ts';

const DEFAULT_QUERIES = ['home', 'arrow left', 'arow', 'calender', 'a', 'serach', 'hom', 'arr', 'weather', 'up', 'left arrow', 'check circle'];

const [url, roundsText, ...given] = process.argv.slice(2);
if (!url) {
  console.error('usage: npx tsx scripts/search/latency.ts <postgresql://...> [rounds] [query...]');
  process.exit(2);
}
const rounds = Number(roundsText ?? 50);
const queries = given.length > 0 ? given : DEFAULT_QUERIES;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const db = await openDatabase({ url, poolSize: 2 });
try {
  const request = (q: string): SearchRequest => ({ q, page: 1, perPage: 24 });
  const totals = new Map<string, number>();
  for (const q of queries) totals.set(q, (await searchIconIds(db.reads, request(q))).total);
  const times = new Map<string, number[]>(queries.map((q) => [q, []]));
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      const started = performance.now();
      await searchIconIds(db.reads, request(q));
      times.get(q)!.push(performance.now() - started);
    }
  }
  console.log(`| query | matches | p50 ms | p95 ms | max ms |\n| --- | ---: | ---: | ---: | ---: |`);
  for (const q of queries) {
    const sorted = times.get(q)!.sort((a, b) => a - b);
    const cells = [percentile(sorted, 50), percentile(sorted, 95), sorted.at(-1)!].map((ms) => ms.toFixed(1));
    console.log(`| \`${q}\` | ${totals.get(q)} | ${cells.join(' | ')} |`);
  }
} finally {
  await db.close();
}
