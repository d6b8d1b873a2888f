// npm start runs the gateway as one bundle, answering Mesh's requests for our plugins from a
// static table; a plugin exported by the workspace package but missing from the table would
// work under `mesh dev` and fail only in production.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledModule, PLUGIN_MODULES } from '../../gateway/bundled-modules.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

describe('the bundled plugin table', () => {
  const exportsOfPackage = JSON.parse(readFileSync(join(PROJECT_ROOT, 'gateway', 'package.json'), 'utf8')).exports as Record<string, string>;

  it('lists exactly the plugins gateway/package.json exports', () => {
    const exported = Object.keys(exportsOfPackage).map((subpath) => `@icon-catalogue/gateway/${subpath.slice(2)}`);
    expect(Object.keys(PLUGIN_MODULES).sort()).toEqual(exported.sort());
  });

  it('loads the same module the package export points at', async () => {
    for (const [subpath, file] of Object.entries(exportsOfPackage)) {
      const fromTable = await bundledModule(`@icon-catalogue/gateway/${subpath.slice(2)}`);
      const fromFile = await import(join(PROJECT_ROOT, 'gateway', file));
      expect(fromTable).toBe(fromFile);
    }
  });

  it('answers the catalogue source by its absolute path, and nothing else', async () => {
    expect(await bundledModule(join(PROJECT_ROOT, 'resolvers', 'mesh-source.ts'))).toHaveProperty('schema');
    expect(bundledModule('@graphql-mesh/graphql')).toBeUndefined();
  });
});
