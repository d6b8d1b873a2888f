// npm start runs the gateway as one bundle: Mesh asks for the catalogue source by path, and
// loadMesh answers from a static table, while the gateway itself comes from the workspace
// package that .meshrc.yaml names (as under `mesh dev`, which imports the package).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledModule } from '../../gateway/front/bundled-modules.ts';
import { GATEWAY_PLUGIN_NAME } from '../../gateway/gateway.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

describe('the modules .meshrc.yaml names', () => {
  it('answers the catalogue source by its absolute path, and nothing else', async () => {
    expect(await bundledModule(join(PROJECT_ROOT, 'resolvers', 'mesh-source.ts'))).toHaveProperty('schema');
    expect(bundledModule('@graphql-mesh/graphql')).toBeUndefined();
    expect(bundledModule(GATEWAY_PLUGIN_NAME)).toBeUndefined();
  });

  it('finds the gateway package by name: a Mesh plugin factory that validates its options', async () => {
    const { default: factory } = (await import(GATEWAY_PLUGIN_NAME)) as { default: (options: Record<string, unknown>) => unknown };
    expect(typeof factory).toBe('function');
    expect(() => factory({ plugins: [{ 'no-such-plugin': {} }], logger: {}, baseDir: '/' })).toThrow(/plugins\[0\]: names no known plugin \(known: observability, /);
  });
});
