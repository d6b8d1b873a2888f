// How long a folder of generated SVG files takes to import (issue 46: 10,000 files in under 60 s
// on a 2-core machine): files written to a temporary folder, imported through the same path as
// `npm run cli -- import --source <folder> --prefix bench` into a fresh database (an in-memory
// PGlite, or DATABASE_URL's server), with the cleanup in worker threads and without, and a
// second import of the unchanged folder; each run's time by stage (read, clean, map, plan, write,
// search data). Usage: tsx bench/import-own-icons.ts [files] [workers]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../prisma/database.ts';
import { applyMigrations } from '../prisma/engine/migrations.ts';
import { importSource } from '../prisma/import/demo-catalogue.ts';

const files = Number(process.argv[2] ?? 10_000);
const workers = Number(process.argv[3] ?? availableParallelism());

/** A deterministic icon of its own: a few shapes, one colour or several, some stroked. */
function svg(index: number): string {
  const r = (n: number) => ((index * 7919 + n * 104_729) % 17) + 2;
  const colour = index % 5 === 0 ? ['#e63946', '#2a9d8f', '#264653'] : ['#000', '#000', '#000'];
  const stroke = index % 3 === 0;
  const shapes = [
    `<path ${stroke ? `fill="none" stroke="${colour[0]}" stroke-width="2"` : `fill="${colour[0]}"`} d="M${r(1)} ${r(2)}L${r(3)} ${r(4)}L${r(5)} ${r(6)}Z"/>`,
    `<circle cx="${r(7)}" cy="${r(8)}" r="${(r(9) % 5) + 1}" fill="${colour[1]}"/>`,
    `<rect x="${r(10) % 12}" y="${r(11) % 12}" width="${r(12) % 8 + 2}" height="${r(13) % 8 + 2}" rx="1" fill="${colour[2]}"/>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><g id="layer-${index}">${shapes.join('')}</g></svg>`;
}

function stageLine(stages: object): string {
  return Object.entries(stages as Record<string, number | undefined>)
    .map(([stage, milliseconds]) => `${stage} ${((milliseconds ?? 0) / 1000).toFixed(1)} s`)
    .join(', ');
}

const folder = await mkdtemp(join(tmpdir(), 'bench-own-icons-'));
try {
  for (let index = 0; index < files; index++) await writeFile(join(folder, `icon-${String(index).padStart(5, '0')}.svg`), svg(index));
  const db = await openDatabase(process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : { dataDir: 'memory://' });
  try {
    await applyMigrations(db);
    const rows: string[] = [];
    for (const [label, prefix, threadCount] of [
      [`${workers} worker threads`, 'bench-workers', workers],
      ['in the importing thread', 'bench-inline', 0],
    ] as const) {
      if (threadCount === 0 && process.env.BENCH_SKIP_INLINE) continue;
      const started = performance.now();
      const summary = await importSource(db.prisma, { source: folder, prefix, workers: threadCount });
      const seconds = (performance.now() - started) / 1000;
      const set = summary.sets[0]!;
      rows.push(`| ${label} | ${files} | ${set.icons} | ${set.rejected.length} | ${seconds.toFixed(1)} s | ${Math.round(files / seconds)} |`);
      console.log(rows.at(-1));
      console.log(`  stages: ${stageLine({ ...set.stages, 'search data': summary.searchDataMilliseconds })}`);
    }
    const again = performance.now();
    const unchanged = await importSource(db.prisma, { source: folder, prefix: 'bench-workers', workers });
    console.log(`| unchanged folder, again (${unchanged.sets[0]!.status}) | ${files} | - | - | ${((performance.now() - again) / 1000).toFixed(1)} s | - |`);
    console.log(`  stages: ${stageLine(unchanged.sets[0]!.stages)}`);
  } finally {
    await db.close();
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
