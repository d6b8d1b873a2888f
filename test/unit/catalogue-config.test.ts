import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadCatalogueConfig, parseCatalogueConfig } from '../../prisma/import/catalogue-config.ts';

const require = createRequire(import.meta.url);

describe('catalogue config', () => {
  it('loads the bundled demo catalogue: five sets, at least one premium, one multicolor-only set', async () => {
    const config = await loadCatalogueConfig();
    expect(config.sets.length).toBeGreaterThanOrEqual(5);
    expect(config.sets.some((set) => set.premium)).toBe(true);
    expect(config.sets.some((set) => !set.premium)).toBe(true);
    // Multicolor-only: the set's own info.json says its icons carry their palette.
    const multicolor = config.sets.filter((set) => (require(`@iconify-json/${set.prefix}/info.json`) as { palette?: boolean }).palette === true);
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
  ])('rejects %j, naming the key', (text, message) => {
    expect(() => parseCatalogueConfig(text, 'catalogue.yaml')).toThrow(ConfigError);
    expect(() => parseCatalogueConfig(text, 'catalogue.yaml')).toThrow(message);
  });
});
