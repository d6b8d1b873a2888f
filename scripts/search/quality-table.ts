// Prints the quality table of the README ("Search"): the first five results of real queries on the demo
// catalogue, as markdown.
//   npx tsx scripts/search/quality-table.ts                 # in-memory PGlite: migrate, import the demo catalogue (~30 s)
//   npx tsx scripts/search/quality-table.ts postgresql://…  # a database that already holds the demo catalogue
import { openDatabase } from '../../prisma/database.ts';
import { applyMigrations } from '../../prisma/engine/migrations.ts';
import { importCatalogue } from '../../prisma/import/demo-catalogue.ts';
import { searchIconIds } from '../../resolvers/catalogue/search/index.ts';

export const QUALITY_QUERIES: [query: string, kind: string][] = [
  ['home', 'word'],
  ['hom', 'prefix'],
  ['arr', 'prefix'],
  ['arrow left', 'two words'],
  ['left arrow', 'two words'],
  ['chevron d', 'typing the last word'],
  ['sun cloud', 'two words, any order'],
  ['user plus', 'two words'],
  ['credit card', 'two words'],
  ['thumbs up', 'two words, one short'],
  ['arow', 'typo'],
  ['calender', 'typo'],
  ['serach', 'typo'],
  ['hoem', 'typo'],
  ['setings', 'typo'],
  ['trsh', 'typo'],
  ['github', 'brand'],
  ['typescript', 'brand'],
  ['cat', 'word'],
  ['pizza', 'word'],
  ['wifi', 'word'],
  ['book', 'whole word before prefix'],
  ['star', 'whole word before prefix'],
  ['weather', 'category and names'],
  ['smileys', 'category'],
  ['transportation', 'tag'],
  ['holiday', 'tag'],
  ['a', 'one letter'],
  ['up', 'two letters'],
];

const url = process.argv[2];
const db = await openDatabase(url ? { url, poolSize: 2 } : { dataDir: 'memory://' });
try {
  if (!url) {
    await applyMigrations(db);
    await importCatalogue(db.prisma);
  }
  const lines = ['| query | kind | matches | top 5 (slugs) |', '| --- | --- | ---: | --- |'];
  for (const [query, kind] of QUALITY_QUERIES) {
    const { ids, total } = await searchIconIds(db.reads, { q: query, page: 1, perPage: 5 });
    const icons = await db.prisma.icon.findMany({ where: { id: { in: ids } }, select: { id: true, slug: true } });
    const slugs = new Map(icons.map((icon) => [icon.id, icon.slug]));
    lines.push(`| \`${query}\` | ${kind} | ${total} | ${ids.map((id) => slugs.get(id)).join(', ')} |`);
  }
  console.log(lines.join('\n'));
} finally {
  await db.close();
}
