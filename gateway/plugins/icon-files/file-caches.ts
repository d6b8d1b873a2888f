// What icon-files keeps: free icons' data (the same for every caller) and finished bytes by
// content (compressed SVGs, rendered PNGs), both kept across a config reload while what they
// hold cannot have changed: the data while the operation and its cache options are the same, the
// finished bytes (by content) while their size is.
import { print, type DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { whenReady, type MaybePromise } from '../../../lib/maybe-promise.ts';
import { ownedBytes } from '../../../lib/owned-bytes.ts';
import type { SharedResources } from '../../shared-resources.ts';
import type { IconFileData } from './file-request.ts';
import type { IconFilesOptions } from './options.ts';

export interface IconFileCaches {
  /**
   * Free icons' data by prefix/name, for cacheSeconds, bounded by its markup's bytes: a count
   * alone would let large icons (hundreds of KB of markup) hold far more than the bound.
   */
  freeFiles: LRUCache<string, IconFileData>;
  /** Finished bytes by content, made once while they stay in the cache: synchronously for a compressed SVG, later for a rendered PNG. */
  finishedBytes(key: string, make: () => MaybePromise<Buffer>): MaybePromise<Buffer>;
}

export function iconFileCaches(options: IconFilesOptions, document: DocumentNode, keep: SharedResources['keep']): IconFileCaches {
  const dataSettings = { document: print(document), maxSize: options.dataCacheMaxBytes, seconds: options.cacheSeconds };
  const freeFiles = keep(
    'icon-files:data',
    dataSettings,
    () =>
      new LRUCache<string, IconFileData>({
        maxSize: Math.max(1, options.dataCacheMaxBytes),
        sizeCalculation: (data, key) => data.body.length + data.version.length + key.length + 96,
        ttl: Math.max(1, options.cacheSeconds) * 1000,
      }),
  );
  // Counted with their keys, as the response cache counts.
  const finished = keep(
    'icon-files:finished',
    { maxSize: options.cacheMaxBytes },
    () => new LRUCache<string, Buffer>({ maxSize: Math.max(1, options.cacheMaxBytes), sizeCalculation: (bytes, key) => bytes.length + key.length + 64 }),
  );
  return {
    freeFiles,
    finishedBytes(key, make) {
      const kept = finished.get(key);
      if (kept) return kept;
      return whenReady(make, (made) => {
        // zlib's output is a slice of a 16 KiB block: kept as it is, a 100-byte file held the block.
        const bytes = ownedBytes(made);
        finished.set(key, bytes);
        return bytes;
      });
    },
  };
}
