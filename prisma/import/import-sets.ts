// Imports Iconify sets one by one: read, map, write in one transaction per set. A set whose
// source, mapping rules and config are unchanged since its last import is skipped, so a
// second run changes nothing and an interrupted run resumes where it stopped, search data
// included (refresh-search.ts).
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../generated/client.ts';
import { mapIconSet, MAPPING_VERSION, type SetOptions } from './map-set.ts';
import { SANITIZER_VERSION } from '../../lib/svg/sanitize.ts';
import { refreshSearchDataIfBehind } from './refresh-search.ts';
import type { SetFile } from './sources.ts';
import { writeSet, type WriteProgress } from './write-set.ts';

export type ImportEvent =
  | { type: 'set-start'; prefix: string; index: number; total: number }
  | ({ type: 'progress' } & WriteProgress)
  | { type: 'set-done'; result: SetImportResult };

export interface SetImportResult {
  prefix: string;
  status: 'imported' | 'unchanged';
  icons: number;
  iconsWritten: number;
  unpublished: number;
  milliseconds: number;
}

export interface ImportSummary {
  sets: SetImportResult[];
  /** The search vocabulary and statistics were rebuilt (after imported sets, or left behind by an interrupted import). */
  searchDataRefreshed: boolean;
  icons: number;
  iconsWritten: number;
  milliseconds: number;
}

export interface ImportOptions {
  /** Settings per prefix (premium, default style). */
  optionsFor: (prefix: string) => SetOptions;
  /** Re-map and compare every icon even when the set's digest is unchanged. */
  force?: boolean;
  onEvent?: (event: ImportEvent) => void;
}

export async function importSets(prisma: PrismaClient, files: readonly SetFile[], options: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const sets: SetImportResult[] = [];
  for (const [index, file] of files.entries()) {
    options.onEvent?.({ type: 'set-start', prefix: file.prefix, index, total: files.length });
    const result = await importOne(prisma, file, options);
    sets.push(result);
    options.onEvent?.({ type: 'set-done', result });
  }
  // After the sets' own transactions: the search vocabulary and planner statistics, whenever
  // they are behind the catalogue, whether this run's sets or an interrupted run's put them so.
  const searchDataRefreshed = await refreshSearchDataIfBehind(prisma);
  return {
    sets,
    searchDataRefreshed,
    icons: sets.reduce((sum, set) => sum + set.icons, 0),
    iconsWritten: sets.reduce((sum, set) => sum + set.iconsWritten, 0),
    milliseconds: performance.now() - started,
  };
}

async function importOne(prisma: PrismaClient, file: SetFile, options: ImportOptions): Promise<SetImportResult> {
  const started = performance.now();
  const setOptions = options.optionsFor(file.prefix);
  const { source, digest: sourceDigest } = await file.load();
  const digest = createHash('sha256')
    .update(`${sourceDigest}\nmapping ${MAPPING_VERSION}\nsanitizer ${SANITIZER_VERSION}\n${JSON.stringify(setOptions)}`)
    .digest('hex');
  const existing = await prisma.iconSet.findUnique({ where: { prefix: file.prefix }, select: { sourceDigest: true, iconCount: true } });
  if (existing?.sourceDigest === digest && !options.force) {
    return { prefix: file.prefix, status: 'unchanged', icons: existing.iconCount, iconsWritten: 0, unpublished: 0, milliseconds: performance.now() - started };
  }
  const { set, icons } = mapIconSet(source, setOptions);
  if (set.prefix !== file.prefix) throw new Error(`${file.prefix}: the source declares prefix "${set.prefix}"`);
  const written = await writeSet(prisma, {
    set,
    icons,
    digest,
    onProgress: (progress) => options.onEvent?.({ type: 'progress', ...progress }),
  });
  return {
    prefix: file.prefix,
    status: 'imported',
    icons: set.iconCount,
    iconsWritten: written.iconsWritten,
    unpublished: written.unpublished,
    milliseconds: performance.now() - started,
  };
}
