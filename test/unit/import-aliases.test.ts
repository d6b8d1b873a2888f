// The importer's aliases (prisma/import/aliases.ts through mapIconSet): which aliases of a set
// become rows, with what, and what is left out.
import { describe, expect, it } from 'vitest';
import { renameAliases } from '../../prisma/import/aliases.ts';
import { mapIconSet } from '../../prisma/import/map-set.ts';

const body = '<path d="M0 0h24v24H0z"/>';

function mapped() {
  return mapIconSet(
    {
      json: {
        prefix: 'demo',
        width: 24,
        height: 24,
        icons: { arrow: { body }, gone: { body, hidden: true }, clash: { body } },
        aliases: {
          'arrow-right': { parent: 'arrow', hFlip: true },
          'arrow-down': { parent: 'arrow-right', rotate: 5, width: 20.5 },
          'arrow-tall': { parent: 'arrow', height: 32, vFlip: true },
          clash: { parent: 'arrow' },
          'to-nowhere': { parent: 'missing' },
          'loop-a': { parent: 'loop-b' },
          'loop-b': { parent: 'loop-a' },
          'of-hidden': { parent: 'gone' },
          'hidden-alias': { parent: 'arrow', hidden: true },
          'through-hidden': { parent: 'hidden-alias' },
        },
      },
      info: { name: 'Demo' },
      version: '1.0.0',
    },
    { premium: false },
  );
}

describe('aliases of an imported set', () => {
  it('keeps each alias with its own parent and transformations, and the icon its chain ends at', () => {
    const { aliases } = mapped();
    expect(aliases).toEqual([
      { name: 'arrow-right', parent: 'arrow', icon: 'arrow', rotate: 0, hFlip: true, vFlip: false, width: null, height: null },
      { name: 'arrow-down', parent: 'arrow-right', icon: 'arrow', rotate: 1, hFlip: false, vFlip: false, width: 20.5, height: null },
      { name: 'arrow-tall', parent: 'arrow', icon: 'arrow', rotate: 0, hFlip: false, vFlip: true, width: null, height: 32 },
    ]);
  });

  it('counts broken and circular chains; an icon of the same name wins without being counted; hidden ones are left out', () => {
    const { aliases, brokenAliases } = mapped();
    const names = aliases.map((alias) => alias.name);
    expect(names).not.toContain('clash');
    for (const hidden of ['of-hidden', 'hidden-alias', 'through-hidden']) expect(names).not.toContain(hidden);
    expect(brokenAliases).toBe(3);
  });

  it('keeps a renamed icon\'s old name as an alias of its new one, where no icon or alias has it', () => {
    const { aliases } = mapped();
    const icons = new Set(['arrow', 'clash']);
    const added = renameAliases({ 'old-arrow': 'arrow', 'old-down': 'arrow-down', clash: 'arrow', 'arrow-right': 'arrow', 'old-gone': 'nothing' }, icons, aliases);
    expect(added).toEqual([
      { name: 'old-arrow', parent: 'arrow', icon: 'arrow', rotate: 0, hFlip: false, vFlip: false, width: null, height: null },
      { name: 'old-down', parent: 'arrow-down', icon: 'arrow', rotate: 0, hFlip: false, vFlip: false, width: null, height: null },
    ]);
  });
});
