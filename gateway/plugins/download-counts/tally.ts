// The downloads a gateway counted since its last batch went through, by the icon's name in
// the request (`/icons/{ref}`: id or slug; a file: set prefix and name). Counting is a map
// increment on the request's path; the database sees one batch every few seconds.
//
// A batch that fails stays the batch, with its id, until it is applied (the statement records
// the id, so a resend of one that went through after all adds nothing); meanwhile new downloads
// gather for the next one. Names held at once are bounded (maxNames): beyond them, downloads of
// icons not yet held are dropped and counted as dropped, so an unreachable database cannot make
// the process grow without end.
import { randomUUID } from 'node:crypto';
import { isIdRef } from '../../../resolvers/catalogue/icon-detail.ts';
import type { DownloadBatch } from '../../../prisma/download-batches.ts';

/** What a request names an icon by. */
export type DownloadedIcon = { ref: string } | { prefix: string; name: string };

export interface DownloadTally {
  /** Counts one download; false when it was dropped (too many names held). */
  add(icon: DownloadedIcon): boolean;
  /** The batch to send: the unapplied one, else one made of what was counted since (undefined: nothing). */
  batch(): DownloadBatch | undefined;
  /** The batch `batch()` gave was applied (or found applied before): it is done. */
  applied(batch: DownloadBatch): void;
  /** Downloads counted and not yet applied (in the unapplied batch and gathering). */
  readonly waiting: number;
}

// NUL cannot occur in a URL's decoded path segment that reached here, nor in PostgreSQL text.
const keyOf = (icon: DownloadedIcon) => ('ref' in icon ? `r\u0000${icon.ref}` : `f\u0000${icon.prefix}\u0000${icon.name}`);

function toBatch(counts: Map<string, number>): DownloadBatch {
  const batch: DownloadBatch = { id: randomUUID(), ids: [], slugs: [], files: [] };
  for (const [key, count] of counts) {
    const [kind, first, second] = key.split('\u0000') as [string, string, string | undefined];
    if (kind === 'f') batch.files.push({ prefix: first, name: second!, count });
    else if (isIdRef(first)) batch.ids.push({ id: Number(first), count });
    else batch.slugs.push({ slug: first, count });
  }
  return batch;
}

export function createDownloadTally(maxNames: number): DownloadTally {
  let gathering = new Map<string, number>();
  let gathered = 0;
  let unapplied: { batch: DownloadBatch; downloads: number } | undefined;

  return {
    add(icon) {
      const key = keyOf(icon);
      const count = gathering.get(key);
      if (count === undefined && gathering.size >= maxNames) return false;
      gathering.set(key, (count ?? 0) + 1);
      gathered++;
      return true;
    },
    batch() {
      if (unapplied) return unapplied.batch;
      if (gathering.size === 0) return undefined;
      const batch = toBatch(gathering);
      unapplied = { batch, downloads: gathered };
      gathering = new Map();
      gathered = 0;
      return batch;
    },
    applied(batch) {
      if (unapplied?.batch === batch) unapplied = undefined;
    },
    get waiting() {
      return gathered + (unapplied?.downloads ?? 0);
    },
  };
}
