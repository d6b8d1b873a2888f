// The `ids` / `slugs` arguments of `icons`: several icons in one request. Their rules (one of
// the two, 1 to MAX_BATCH refs, no filter beside them) are BAD_USER_INPUT errors naming the
// argument; `page`, `perPage` and `sort` do not apply (the order is the order asked).
import { CONTROL_CHARACTERS, hasFilter, iconFilter, type GraphQLFilter } from './arguments.ts';
import { loadBatchByIds, loadBatchBySlugs, type IconBatch } from './catalogue/icon-batch.ts';
import { badInput } from './errors.ts';
import type { Reads } from '../prisma/reads.ts';

export const MAX_BATCH = 100;

export interface BatchArgs {
  ids?: readonly number[] | null;
  slugs?: readonly string[] | null;
  filter?: GraphQLFilter | null;
}

/** The icons asked for by `ids` or `slugs`; undefined when neither is given (a plain list). */
export async function iconBatch(reads: Reads, { ids, slugs, filter }: BatchArgs): Promise<IconBatch | undefined> {
  if (ids == null && slugs == null) return undefined;
  if (ids != null && slugs != null) throw badInput('ids', 'give ids or slugs, not both');
  const name = ids != null ? 'ids' : 'slugs';
  const refs = (ids ?? slugs)!;
  if (refs.length === 0) throw badInput(name, `${name} must list at least one icon`);
  if (refs.length > MAX_BATCH) throw badInput(name, `${name} must list at most ${MAX_BATCH} icons (got ${refs.length})`);
  if (hasFilter(iconFilter(filter))) throw badInput(name, `${name} cannot be combined with filters: ask for the icons, then filter them yourself`);
  if (ids != null) return loadBatchByIds(reads, ids);
  const bad = slugs!.find((slug) => CONTROL_CHARACTERS.test(slug));
  if (bad !== undefined) throw badInput('slugs', 'slugs must not contain control characters');
  return loadBatchBySlugs(reads, slugs!);
}
