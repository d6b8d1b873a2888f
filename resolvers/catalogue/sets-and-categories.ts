// The icon sets and categories, kept in memory per database: a few hundred rows that every icon
// row read on the serving path used to carry joined in, ten of its 24 columns. Without them a
// list page's rows cost a third fewer values to parse, and list-page misses ran 1.11x as fast on
// the full catalogue (bench/RESULTS.md, 2026-11-26 night).
//
// Current by the catalogue version: the importer writes sets and categories only in the
// transaction that increments `catalogue_state.version` (prisma/import/write-set.ts), and never
// deletes one. Icon rows are read with the version they were read at; a copy at that version or a
// later one has every set and category they name (a later one may name them as the newer import
// does, as a join in a later statement would). A row read at a newer version than the copy has
// the copy read again first.
import type { IconSet } from '../../prisma/generated/client.ts';
import { Prisma } from '../../prisma/generated/client.ts';
import { perReads, type Reads } from '../../prisma/reads.ts';

/** What an icon record shows of its set. */
export type SetRecord = Pick<IconSet, 'prefix' | 'name' | 'author' | 'authorUrl' | 'licenseTitle' | 'licenseSpdx' | 'licenseUrl' | 'premium'>;

export interface CategoryRecord {
  name: string;
  slug: string;
}

export interface SetsAndCategories {
  /** The `catalogue_state.version` they were read at. */
  version: number;
  sets: ReadonlyMap<number, Readonly<SetRecord>>;
  categories: ReadonlyMap<number, Readonly<CategoryRecord>>;
}

type SetTuple = [id: number, prefix: string, name: string, author: string, authorUrl: string | null, licenseTitle: string, licenseSpdx: string | null, licenseUrl: string | null, premium: boolean];
type CategoryTuple = [id: number, name: string, slug: string];

// One snapshot: the version and both lists in one statement.
const READ_ALL = Prisma.sql`SELECT coalesce((SELECT version FROM catalogue_state WHERE id = 1), 0) AS version,
  (SELECT coalesce(json_agg(json_build_array(id, prefix, name, author, author_url, license_title, license_spdx, license_url, premium)), '[]')::text FROM icon_sets) AS sets,
  (SELECT coalesce(json_agg(json_build_array(id, name, slug)), '[]')::text FROM categories) AS categories`;

async function readSetsAndCategories(reads: Reads): Promise<SetsAndCategories> {
  const [row] = await reads.rows<{ version: number; sets: string; categories: string }>('sets_and_categories', READ_ALL);
  const sets = (JSON.parse(row!.sets) as SetTuple[]).map(([id, prefix, name, author, authorUrl, licenseTitle, licenseSpdx, licenseUrl, premium]) => [
    id,
    Object.freeze({ prefix, name, author, authorUrl, licenseTitle, licenseSpdx, licenseUrl, premium }),
  ] as const);
  const categories = (JSON.parse(row!.categories) as CategoryTuple[]).map(([id, name, slug]) => [id, Object.freeze({ name, slug })] as const);
  return { version: Number(row!.version), sets: new Map(sets), categories: new Map(categories) };
}

/** Each database's copy: the latest read, and the read under way (concurrent requests share it). */
const copyOf = perReads((reads) => {
  let current: SetsAndCategories | undefined;
  let reading: Promise<SetsAndCategories> | undefined;
  const readAgain = () => {
    reading ??= readSetsAndCategories(reads).then(
      (read) => {
        reading = undefined;
        if (!current || read.version >= current.version) current = read;
        return current;
      },
      (error: unknown) => {
        reading = undefined;
        throw error;
      },
    );
    return reading;
  };
  return {
    /** A copy at `version` or later; `complete` says whether it has what the rows name (else it is read again once). */
    async at(version: number, complete: (copy: SetsAndCategories) => boolean): Promise<SetsAndCategories> {
      let copy = current;
      // A read under way may have started before the rows' version: wait for it, then read again if needed.
      if (!copy || copy.version < version) copy = await readAgain();
      if (copy.version < version) copy = await readAgain();
      if (complete(copy)) return copy;
      copy = await readAgain();
      if (complete(copy)) return copy;
      throw new Error(`icon rows at catalogue version ${version} name a set or category that catalogue_state version ${copy.version} does not have`);
    },
  };
});

/**
 * The sets and categories that icon rows read at catalogue version `version` name: the copy in
 * memory, read again when the rows are newer or name one it does not have.
 */
export function setsAndCategoriesFor(reads: Reads, version: number, rows: readonly { set_id: number; category_id: number }[]): Promise<SetsAndCategories> {
  return copyOf(reads).at(version, (copy) => rows.every((row) => copy.sets.has(row.set_id) && copy.categories.has(row.category_id)));
}
