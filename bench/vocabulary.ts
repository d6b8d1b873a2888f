// The catalogue's vocabulary, read from the database the gateway serves (through the project's
// Prisma client: DATABASE_URL, or the PGlite directory while no gateway holds it): the words of
// search_words, two-word phrases of icon names, the free icons' ids and slugs, and every filter
// value with its number of published icons. The bench's URL lists are generated from it.
import { openDatabase } from '../prisma/database.ts';
import type { SearchVocabulary } from './query-mix.ts';
import type { Counted, IconRef, ListVocabulary } from './url-lists.ts';

export interface CatalogueVocabulary {
  search: SearchVocabulary;
  /** Free published icons (a premium one is 403 to the bench's account), by id. */
  icons: IconRef[];
  list: ListVocabulary;
}

/** Adjacent word pairs of the names ("Arrow Left Bold": "arrow left", "left bold"), with how many names hold each. */
export function namePhrases(names: Iterable<string>): { text: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const name of names) {
    const words = name.toLowerCase().split(/[^a-z]+/).filter((word) => word.length >= 2);
    const seen = new Set<string>();
    for (let i = 0; i + 1 < words.length; i++) seen.add(`${words[i]} ${words[i + 1]}`);
    for (const phrase of seen) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  return [...counts].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : 1));
}

type Row = { value: string; count: number };

export async function readVocabulary(source: { url?: string | undefined; dataDir?: string | undefined }): Promise<CatalogueVocabulary> {
  const db = await openDatabase({ url: source.url, dataDir: source.dataDir, poolSize: 2 });
  try {
    const q = <T>(sql: string) => db.prisma.$queryRawUnsafe<T[]>(sql);
    const counted = (rows: Row[]): Counted[] => rows.map(({ value, count }) => ({ value, count: Number(count) }));
    const words = await q<{ word: string; ndoc: number }>(`SELECT word, ndoc FROM search_words WHERE word ~ '^[a-z]{2,}$' ORDER BY word`);
    const names = await q<{ name: string }>(`SELECT name FROM icons WHERE published ORDER BY id`);
    const icons = await q<IconRef>(
      `SELECT i.id, i.slug, s.prefix, i.source_name AS name FROM icons i JOIN icon_sets s ON s.id = i.set_id WHERE i.published AND NOT i.premium ORDER BY i.id`,
    );
    const [{ total }] = (await q<{ total: number }>(`SELECT count(*)::int AS total FROM icons WHERE published`)) as [{ total: number }];
    const categories = await q<Row>(
      `SELECT c.slug AS value, count(*)::int AS count FROM categories c JOIN icons i ON i.category_id = c.id AND i.published GROUP BY c.slug ORDER BY c.slug`,
    );
    const tags = await q<Row>(
      `SELECT t.slug AS value, count(*)::int AS count FROM tags t JOIN icon_tags it ON it.tag_id = t.id JOIN icons i ON i.id = it.icon_id AND i.published GROUP BY t.slug ORDER BY t.slug`,
    );
    const styles = await q<Row>(`SELECT style AS value, count(*)::int AS count FROM icons WHERE published GROUP BY style ORDER BY style`);
    const colors = await q<Row>(`SELECT c AS value, count(*)::int AS count FROM icons, unnest(colors) AS c WHERE published GROUP BY c ORDER BY c`);
    const licenses = await q<Row>(
      `SELECT CASE WHEN premium THEN 'premium' ELSE 'free' END AS value, count(*)::int AS count FROM icons WHERE published GROUP BY 1 ORDER BY 1`,
    );
    return {
      search: { words: words.map(({ word, ndoc }) => ({ word, ndoc: Number(ndoc) })), phrases: namePhrases(names.map(({ name }) => name)) },
      icons: icons.map(({ id, slug, prefix, name }) => ({ id: Number(id), slug, prefix, name })),
      list: { total: Number(total), categories: counted(categories), tags: counted(tags), styles: counted(styles), colors: counted(colors), licenses: counted(licenses) },
    };
  } finally {
    await db.close();
  }
}
