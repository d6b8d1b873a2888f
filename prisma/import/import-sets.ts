// Imports Iconify sets one by one: read, map, write in one transaction per set. A set whose
// source, mapping rules and config are unchanged since its last import is skipped, so a
// second run changes nothing and an interrupted run resumes where it stopped, search data
// included (refresh-search.ts).
import { createHash } from 'node:crypto';
import type { PrismaClient } from '../generated/client.ts';
import { renameAliases } from './aliases.ts';
import { mapIconSet, MAPPING_VERSION, type SetOptions } from './map-set.ts';
import { SANITIZER_VERSION } from '../../lib/svg/sanitize.ts';
import { refreshSearchDataIfBehind } from './refresh-search.ts';
import type { Rejection } from './own-sources.ts';
import type { SetFile } from './sources.ts';
import type { StageTimes } from './stages.ts';
import { planSet, writeSet, type OwnersConfig, type SetPlan, type WriteProgress } from './write-set.ts';

export type { StageTimes } from './stages.ts';

export type ImportEvent =
  | { type: 'set-start'; prefix: string; index: number; total: number }
  /** `clean`: a folder's files cleaned so far (iconsDone counts files); `write`: icons written. */
  | ({ type: 'progress'; stage: 'clean' | 'write' } & WriteProgress)
  | { type: 'set-done'; result: SetImportResult };


export interface SetImportResult {
  prefix: string;
  /**
   * `planned`: a dry run (nothing written); `empty`: no icon could be imported; `refused`: strict,
   * and files were rejected. Either of the last two leaves the set as it was.
   */
  status: 'imported' | 'unchanged' | 'planned' | 'empty' | 'refused';
  icons: number;
  iconsWritten: number;
  unpublished: number;
  milliseconds: number;
  /** Files (or icons of an IconifyJSON file) left out, and why. */
  rejected: Rejection[];
  /** Aliases left out because their chain is broken or circular (only for a set that was read). */
  brokenAliases?: number;
  /** Problems that left every icon in (a metadata entry naming no file), one line each. */
  warnings: string[];
  /** What the import changed, or (a dry run) would change; only for a set that was read. */
  plan?: SetPlan;
  stages: StageTimes;
}

/** What a set is imported with, besides its source. */
export interface SetSettings extends SetOptions {
  owners?: OwnersConfig;
  /** Old name -> new name. */
  renames?: Record<string, string>;
}

export interface ImportSummary {
  sets: SetImportResult[];
  /** The search vocabulary and statistics were rebuilt (after imported sets, or left behind by an interrupted import). */
  searchDataRefreshed: boolean;
  /** How long that took (0 when it did not run). */
  searchDataMilliseconds: number;
  icons: number;
  iconsWritten: number;
  milliseconds: number;
}

export interface ImportOptions {
  /** Settings per prefix (premium, default style, owners, renames). */
  optionsFor: (prefix: string) => SetSettings;
  /** Re-map and compare every icon even when the set's digest is unchanged. */
  force?: boolean;
  /** Read, clean and compare, and report what would change; write nothing. */
  dryRun?: boolean;
  /** A set with any rejected file is not written. */
  strict?: boolean;
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
  const refreshStarted = performance.now();
  const searchDataRefreshed = options.dryRun ? false : await refreshSearchDataIfBehind(prisma);
  return {
    sets,
    searchDataRefreshed,
    searchDataMilliseconds: searchDataRefreshed ? performance.now() - refreshStarted : 0,
    icons: sets.reduce((sum, set) => sum + set.icons, 0),
    iconsWritten: sets.reduce((sum, set) => sum + set.iconsWritten, 0),
    milliseconds: performance.now() - started,
  };
}

async function importOne(prisma: PrismaClient, file: SetFile, options: ImportOptions): Promise<SetImportResult> {
  const started = performance.now();
  const stages: StageTimes = {};
  /** Runs one stage, adding its time to `stages`. */
  const timed = async <T>(stage: keyof StageTimes, run: () => T | Promise<T>): Promise<T> => {
    const stageStarted = performance.now();
    try {
      return await run();
    } finally {
      stages[stage] = (stages[stage] ?? 0) + performance.now() - stageStarted;
    }
  };
  const { owners, renames, ...setOptions } = options.optionsFor(file.prefix);
  const settingsText = JSON.stringify({ ...setOptions, ...(owners ? { owners } : {}), ...(renames ? { renames } : {}) });
  const digestOf = (sourceDigest: string) =>
    createHash('sha256').update(`${sourceDigest}\nmapping ${MAPPING_VERSION}\nsanitizer ${SANITIZER_VERSION}\n${settingsText}`).digest('hex');
  const existing = await prisma.iconSet.findUnique({ where: { prefix: file.prefix }, select: { sourceDigest: true, iconCount: true } });
  const unchanged = (): SetImportResult => ({
    prefix: file.prefix,
    status: 'unchanged',
    icons: existing!.iconCount,
    iconsWritten: 0,
    unpublished: 0,
    milliseconds: performance.now() - started,
    rejected: [],
    stages,
    warnings: [],
  });
  // A folder's digest is read without cleaning its files: an unchanged folder costs its reads only.
  const peekDigest = file.peekDigest;
  if (peekDigest && existing && !options.force && existing.sourceDigest === digestOf(await timed('read', peekDigest))) return unchanged();
  const loadStarted = performance.now();
  const loaded = await file.load({
    onProgress: (iconsDone, iconsTotal) => options.onEvent?.({ type: 'progress', stage: 'clean', prefix: file.prefix, iconsDone, iconsTotal }),
  });
  // A source that times its own reading and cleaning says so; any other's load is all reading.
  for (const [stage, milliseconds] of Object.entries(loaded.stages ?? { read: performance.now() - loadStarted }) as [keyof StageTimes, number][]) {
    stages[stage] = (stages[stage] ?? 0) + milliseconds;
  }
  const { source, digest: sourceDigest, rejected = [], warnings = [], renames: sourceRenames, defaultStyle } = loaded;
  if (setOptions.defaultStyle === undefined && defaultStyle) setOptions.defaultStyle = defaultStyle;
  const digest = digestOf(sourceDigest);
  if (existing?.sourceDigest === digest && !options.force) return { ...unchanged(), rejected, warnings };
  const allRenames = { ...sourceRenames, ...renames };
  const base = { prefix: file.prefix, iconsWritten: 0, unpublished: 0, rejected, warnings, stages };
  if (Object.keys((source.json as { icons?: object }).icons ?? {}).length === 0) {
    return { ...base, status: 'empty', icons: existing?.iconCount ?? 0, milliseconds: performance.now() - started };
  }
  const { set, icons, aliases: setAliases, brokenAliases } = await timed('map', () => mapIconSet(source, { ...setOptions, renames: allRenames }));
  const published = new Set(icons.filter((icon) => icon.published).map((icon) => icon.sourceName));
  const aliases = [...setAliases, ...renameAliases(allRenames, published, setAliases)];
  if (set.prefix !== file.prefix) throw new Error(`${file.prefix}: the source declares prefix "${set.prefix}"`);
  if (options.strict && rejected.length && !options.dryRun) {
    return { ...base, status: 'refused', icons: existing?.iconCount ?? 0, milliseconds: performance.now() - started };
  }
  const plan = await timed('plan', () => planSet(prisma, { set, icons, renames: allRenames, aliases }));
  if (options.dryRun) {
    return { ...base, status: 'planned', icons: set.iconCount, milliseconds: performance.now() - started, plan, brokenAliases };
  }
  const written = await timed('write', () =>
    writeSet(prisma, {
      set,
      icons,
      digest,
      renames: allRenames,
      aliases,
      ...(owners ? { owners } : {}),
      onProgress: (progress) => options.onEvent?.({ type: 'progress', stage: 'write', ...progress }),
    }),
  );
  return {
    ...base,
    status: 'imported',
    icons: set.iconCount,
    iconsWritten: written.iconsWritten,
    unpublished: written.unpublished,
    milliseconds: performance.now() - started,
    plan,
    brokenAliases,
  };
}
