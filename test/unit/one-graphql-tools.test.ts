// One copy of @graphql-tools/utils, schema and merge in the gateway (package.json `overrides`
// and the direct dependency on schema 10). Mesh's packages ask for three majors of utils, and npm
// nested a copy under each dependent: 32 copies (2,688 files) were loaded by a gateway at start,
// 20 MB of its heap. If an upgrade brings the copies back, this fails: every package that loads
// them, resolved from where it sits, must find the same files.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

const projectRequire = createRequire(join(PROJECT_ROOT, 'package.json'));

/** Packages the gateway loads that depend on graphql-tools (Mesh, Yoga, envelop, graphql-tools itself). */
const DEPENDENTS = [
  '@graphql-mesh/runtime',
  '@graphql-mesh/utils',
  '@graphql-mesh/graphql',
  '@graphql-tools/delegate',
  '@graphql-tools/wrap',
  '@graphql-tools/batch-execute',
  '@graphql-tools/stitch',
  '@graphql-tools/executor',
  'graphql-yoga',
  '@envelop/response-cache',
];

/** Where `name` resolves from inside `dependent`'s own folder, as Node resolves it at run time. */
function resolvedFrom(dependent: string, name: string): string {
  const from = createRequire(projectRequire.resolve(`${dependent}/package.json`));
  return dirname(from.resolve(`${name}/package.json`));
}

describe('the gateway loads one copy of graphql-tools', () => {
  for (const name of ['@graphql-tools/utils', '@graphql-tools/schema', '@graphql-tools/merge']) {
    it(`resolves ${name} to the same files from every package that loads it`, () => {
      const ours = dirname(projectRequire.resolve(`${name}/package.json`));
      const copies = new Set(DEPENDENTS.map((dependent) => resolvedFrom(dependent, name)));
      expect([...copies]).toEqual([ours]);
    });
  }
});
