// The modules of this project that .meshrc.yaml names (our plugins by package name, the
// catalogue source by path), imported statically so that `npm start` can run as one bundle in
// plain Node (dist/gateway.mjs, scripts/build-gateway.mjs): Mesh's loader asks for them by
// name, and loadMesh answers from here instead of resolving TypeScript files at run time.
// `mesh dev` and `mesh start` do not use this; they load the same files through Mesh's own
// loader. Keep the keys in step with gateway/package.json's exports (a test compares them).
import { join } from 'node:path';
import { PROJECT_ROOT } from '../lib/project-root.ts';

type ModuleLoader = () => Promise<unknown>;

export const PLUGIN_MODULES: Record<string, ModuleLoader> = {
  '@icon-catalogue/gateway/catalogue-context': () => import('./plugins/catalogue-context.ts'),
  '@icon-catalogue/gateway/rest-routes': () => import('./plugins/rest-routes.ts'),
  '@icon-catalogue/gateway/api-key-auth': () => import('./plugins/api-key-auth.ts'),
  '@icon-catalogue/gateway/rate-limit': () => import('./plugins/rate-limit.ts'),
  '@icon-catalogue/gateway/error-shaping': () => import('./plugins/error-shaping.ts'),
  '@icon-catalogue/gateway/graphql-cache': () => import('./plugins/graphql-cache.ts'),
};

const SOURCE_MODULES: Record<string, ModuleLoader> = {
  [join(PROJECT_ROOT, 'resolvers', 'mesh-source.ts')]: () => import('../resolvers/mesh-source.ts'),
};

/** The module Mesh asks for by `id`, when it is one of ours; undefined otherwise. */
export function bundledModule(id: string): Promise<unknown> | undefined {
  return (PLUGIN_MODULES[id] ?? SOURCE_MODULES[id])?.();
}
