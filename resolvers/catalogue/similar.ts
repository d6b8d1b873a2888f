// `similar`: the same concept in other sets and styles (issue 14). An icon's concept is the
// words of its name without the words that only say a style or a variant number ("Home Outline"
// and "Home 2" are both `home`). Similar icons are the other published icons whose names have
// every concept word as a whole word, found through the search document's name weight (the GIN
// index), ranked:
//   1. fewer added words: the same concept first, no word in the name beyond the concept, style
//      and number words ("Home", "Home Bold", "Home 2" for `home`), then "Home Heart"...;
//   2. more tags shared with the icon (its own tags, not its set's);
//   3. the same category;
//   4. more popular, then the lower id (a total order: pages never overlap).
// A concept word most icons share (`arrow`: 13,000 names) is the worst case: every candidate is
// ranked, about 20-60 ms on the full catalogue; the total is counted with the page (count-cache).
import { Prisma } from '../../prisma/generated/client.ts';
import { STYLE_NAME_WORDS } from '../../prisma/import/styles.ts';
import type { Reads } from '../../prisma/reads.ts';
import { pageWithTotal } from './count-cache.ts';
import { offsetOf, type IdPage, type PageRequest } from './filters.ts';
import type { IconDetail } from './icon-detail.ts';

const nameWords = (name: string) => name.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const isStyleOrNumber = (word: string) => STYLE_NAME_WORDS.has(word) || /^\d+$/.test(word);

/** The words of a name that say what it shows; all its words when every one is a style or number word. */
export function conceptOf(name: string): string[] {
  const words = [...new Set(nameWords(name))];
  const concept = words.filter((word) => !isStyleOrNumber(word));
  return concept.length > 0 ? concept : words;
}

/** A tsquery of whole words in the name (weight A), bound as one value: `'home':A & 'heart':A` (words are letters and digits only). */
function nameQuery(words: string[]): string {
  return words.map((word) => `'${word}':A`).join(' & ');
}

export async function similarIconIds(reads: Reads, { icon, tags }: IconDetail, paging: PageRequest): Promise<IdPage> {
  const concept = conceptOf(icon.name);
  const ignorable = [...new Set([...concept, ...STYLE_NAME_WORDS])];
  const tagIds = tags.map((tag) => tag.tagId);
  const matches = Prisma.sql`i.published AND i.id <> ${icon.id}::int AND i.search @@ ${nameQuery(concept)}::tsquery`;
  // Words of the name that are neither concept, style nor number words ('' never occurs).
  const added = Prisma.sql`(SELECT count(*) FROM unnest(regexp_split_to_array(lower(i.name), '[^[:alnum:]]+')) w
    WHERE w <> '' AND w <> ALL(${ignorable}::text[]) AND w !~ '^[0-9]+$')`;
  const sharedTags = Prisma.sql`(SELECT count(*) FROM icon_tags it WHERE it.icon_id = i.id AND NOT it.of_set AND it.tag_id = ANY(${tagIds}::int[]))`;
  const page = Prisma.sql`SELECT s.id FROM (
      SELECT i.id, i.popularity, ${added} AS added, ${sharedTags} AS shared, (i.category_id = (SELECT category_id FROM icons WHERE id = ${icon.id}::int)) AS same_category
      FROM icons i WHERE ${matches}) s
    ORDER BY s.added ASC, s.shared DESC, s.same_category DESC, s.popularity DESC, s.id ASC
    LIMIT ${paging.perPage} OFFSET ${offsetOf(paging)}`;
  return pageWithTotal(reads, page, Prisma.sql`SELECT count(*) AS total FROM icons i WHERE ${matches}`, 'similar', undefined, { offset: offsetOf(paging) });
}
