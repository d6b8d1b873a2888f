// The icon sets and categories, kept in memory per database: a few hundred rows that every icon
// row read on the serving path used to carry joined in, ten of its 24 columns: without them a
// list page's rows have far fewer values to parse.
//
// Current by the catalogue version: the importer writes sets and categories only in the
// transaction that increments `catalogue_state.version` (prisma/import/write-set.ts), and never
// deletes one. Icon rows are read with the version they were read at, and the copy serves rows
// of its own version that name nothing it lacks; for any others it is read again first (a read
// that starts after the rows were read). That read may be of a later version than the rows, when
// an import commits in between: its names are then the newer import's, as a join in a later
// statement would give.
import type { IconSet } from '../../prisma/generated/client.ts';
import { Prisma } from '../../prisma/generated/client.ts';
import { perReads, type Reads } from '../../prisma/reads.ts';
import { DatabaseUnavailableError } from '../../prisma/unavailable.ts';

/** A set as the resolvers see it: what an icon's record carries of its set. */
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

/**
 * Each database's copy, and the read under way (concurrent requests share it). Reads run one at a
 * time, so the latest to finish is the newest the server gave: it replaces the copy even when its
 * version is lower (a database restored while the gateway runs).
 */
const copyOf = perReads((reads) => {
  let current: SetsAndCategories | undefined;
  let started = 0;
  let reading: { number: number; copy: Promise<SetsAndCategories> } | undefined;
  /** A copy read by a read that started after the `seen`th. */
  const readAfter = (seen: number): Promise<SetsAndCategories> => {
    if (reading && reading.number > seen) return reading.copy;
    // The read under way may have started before the rows were read: the next one is wanted.
    if (reading) return reading.copy.then(() => readAfter(seen), () => readAfter(seen));
    const read = { number: ++started, copy: readSetsAndCategories(reads) };
    reading = read;
    read.copy.then(
      (copy) => {
        current = copy;
        reading = undefined;
      },
      () => {
        reading = undefined;
      },
    );
    return read.copy;
  };
  return {
    /** The copy when it is of `version` and `complete`; else one read after this call. */
    async at(version: number, complete: (copy: SetsAndCategories) => boolean): Promise<SetsAndCategories> {
      if (current?.version === version && complete(current)) return current;
      const copy = await readAfter(started);
      if (complete(copy)) return copy;
      // Only where reads can see different states (replicas behind one address, one lagging).
      throw new DatabaseUnavailableError('busy', { message: `icon rows at catalogue version ${version} name a set or category the database's copy (version ${copy.version}) does not have` });
    },
  };
});

/**
 * The sets and categories that icon rows read at catalogue version `version` name: the copy in
 * memory, read again when the rows are of another version or name one it does not have.
 */
export function setsAndCategoriesFor(reads: Reads, version: number, rows: readonly { set_id: number; category_id: number }[]): Promise<SetsAndCategories> {
  return copyOf(reads).at(version, (copy) => rows.every((row) => copy.sets.has(row.set_id) && copy.categories.has(row.category_id)));
}
