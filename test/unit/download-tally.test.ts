// The in-memory side of download counting (gateway/plugins/download-counts/tally.ts): counts by
// the name in the request, batches that keep their id until applied, and the bound on names.
import { describe, expect, it } from 'vitest';
import { createDownloadTally } from '../../gateway/plugins/download-counts/tally.ts';
import { downloadCountsOptions } from '../../gateway/plugins/download-counts/options.ts';

describe('download tally', () => {
  it('gathers downloads by name and splits refs into ids and slugs as /icons/{ref} does', () => {
    const tally = createDownloadTally(100);
    for (const icon of [{ ref: '42' }, { ref: '42' }, { ref: 'mdi-home' }, { prefix: 'mdi', name: 'home' }, { ref: '1234567890' }]) tally.add(icon);
    expect(tally.waiting).toBe(5);
    const batch = tally.batch()!;
    expect(batch).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ids: [{ id: 42, count: 2 }],
      // ten digits is not an id (/icons/{ref} takes at most nine): a slug, which matches nothing
      slugs: [{ slug: 'mdi-home', count: 1 }, { slug: '1234567890', count: 1 }],
      files: [{ prefix: 'mdi', name: 'home', count: 1 }],
    });
  });

  it('resends the same batch, id and all, until it is applied; what comes meanwhile waits for the next', () => {
    const tally = createDownloadTally(100);
    tally.add({ ref: '1' });
    const sent = tally.batch()!;
    tally.add({ ref: '2' });
    expect(tally.waiting).toBe(2);
    expect(tally.batch()).toBe(sent); // the send failed: the same batch again
    tally.applied(sent);
    expect(tally.waiting).toBe(1);
    const next = tally.batch()!;
    expect(next.id).not.toBe(sent.id);
    expect(next.ids).toEqual([{ id: 2, count: 1 }]);
    tally.applied(next);
    expect([tally.waiting, tally.batch()]).toEqual([0, undefined]);
  });

  it('holds at most maxNames names: downloads of new ones are dropped, known ones still count', () => {
    const tally = createDownloadTally(2);
    expect([tally.add({ ref: 'a' }), tally.add({ ref: 'b' }), tally.add({ ref: 'c' }), tally.add({ ref: 'a' })]).toEqual([true, true, false, true]);
    expect(tally.batch()!.slugs).toEqual([{ slug: 'a', count: 2 }, { slug: 'b', count: 1 }]);
  });

  it('refuses a counted route that does not name one icon', () => {
    expect(downloadCountsOptions.safeParse({ routes: ['/icons/{ref}/similar'] }).success).toBe(true);
    expect(downloadCountsOptions.safeParse({ routes: ['/icons'] }).success).toBe(false);
    expect(downloadCountsOptions.safeParse({ routes: ['/svg/{prefix}.svg'] }).success).toBe(false);
    expect(downloadCountsOptions.safeParse({ routes: ['/x/{ref}/{prefix}/{name}'] }).success).toBe(false);
  });
});
