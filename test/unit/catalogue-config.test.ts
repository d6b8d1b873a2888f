import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadCatalogueConfig, matchesGlob, parseCatalogueConfig } from '../../prisma/import/catalogue-config.ts';

const require = createRequire(import.meta.url);

describe('catalogue config', () => {
  it('loads the bundled demo catalogue: five Iconify packages and its own set, at least one premium, one multicolor-only set', async () => {
    const config = await loadCatalogueConfig();
    const packages = config.sets.filter((set) => set.source === undefined);
    expect(packages.length).toBeGreaterThanOrEqual(5);
    expect(config.sets.some((set) => set.source?.kind === 'folder')).toBe(true);
    expect(config.sets.some((set) => set.premium)).toBe(true);
    expect(config.sets.some((set) => !set.premium)).toBe(true);
    // Multicolor-only: the set's own info.json says its icons carry their palette.
    const multicolor = packages.filter((set) => (require(`@iconify-json/${set.prefix}/info.json`) as { palette?: boolean }).palette === true);
    expect(multicolor.length).toBeGreaterThanOrEqual(1);
  });

  it('fills defaults', () => {
    expect(parseCatalogueConfig('sets: [{prefix: mdi}]', 'x.yaml')).toEqual({ sets: [{ prefix: 'mdi', premium: false }] });
  });

  it.each([
    ['sets: []', 'sets: must list at least one set'],
    ['sets: [{prefix: "Bad Prefix"}]', 'sets[0].prefix: must be an Iconify prefix'],
    ['sets: [{prefix: mdi, premium: "yes"}]', 'sets[0].premium'],
    ['sets: [{prefix: mdi, colour: red}]', 'sets[0]'],
    ['sets: [{prefix: mdi}, {prefix: mdi}]', 'sets[1].prefix: "mdi" is listed twice'],
    ['sets: [{prefix: mdi}]\nextra: 1', 'extra'],
    ['sets: [{prefix: mdi', 'not valid YAML'],
    ['sets: [{prefix: acme, source: {}}]', 'sets[0].source: must name exactly one of package, collection, json, folder (got none)'],
    ['sets: [{prefix: acme, source: {folder: a, json: b.json}}]', 'sets[0].source: must name exactly one of package, collection, json, folder (got json, folder)'],
    ['sets: [{prefix: acme, source: {json: a.json, metadata: m.yaml}}]', 'sets[0].source.metadata: only a folder source has a metadata file'],
    ['sets: [{prefix: acme, source: {collection: false}}]', 'sets[0].source.collection'],
    ['sets: [{prefix: acme, premium: []}]', 'sets[0].premium'],
    ['sets: [{prefix: acme, owners: {bob: "all"}}]', 'sets[0].owners.bob: must be "*" (the whole set) or a list of icon names or globs'],
    ['sets: [{prefix: acme, license: {spdx: "not a license!"}}]', 'sets[0].license.spdx: must be an SPDX license id'],
    ['sets: [{prefix: acme, license: {spdx: MIT, url: nope}}]', 'sets[0].license.url'],
  ])('rejects %j, naming the key', (text, message) => {
    expect(() => parseCatalogueConfig(text, 'catalogue.yaml')).toThrow(ConfigError);
    expect(() => parseCatalogueConfig(text, 'catalogue.yaml')).toThrow(message);
  });

  it('resolves source paths against the config file\'s folder and keeps premium globs and owners', () => {
    const config = parseCatalogueConfig(
      'sets:\n  - prefix: acme\n    source: {folder: icons/acme}\n    premium: ["logo-*"]\n    owners: {bob: "*", ann: [star]}\n  - prefix: mdi\n    source: {collection: true}',
      '/etc/catalogue/catalogue.yaml',
    );
    expect(config.sets[0]).toEqual({
      prefix: 'acme',
      source: { kind: 'folder', path: '/etc/catalogue/icons/acme' },
      premium: ['logo-*'],
      owners: { bob: '*', ann: ['star'] },
    });
    expect(config.sets[1]!.source).toEqual({ kind: 'collection' });
  });

  it('matches icon names against globs', () => {
    expect(matchesGlob('logo-github', 'logo-*')).toBe(true);
    expect(matchesGlob('logo', 'logo-*')).toBe(false);
    expect(matchesGlob('star2', 'star?')).toBe(true);
    expect(matchesGlob('a.b', 'a?b')).toBe(true);
    expect(matchesGlob('axb', 'a.b')).toBe(false);
  });
});
