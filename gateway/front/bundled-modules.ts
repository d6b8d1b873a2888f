// The modules of this project that .meshrc.yaml names (the gateway by package name, the
// catalogue source by path), imported statically so that `npm start` can run as one bundle in
// plain Node (dist/gateway.mjs, scripts/build-gateway.mjs): Mesh's loader asks for them by
// name, and loadMesh answers from here instead of resolving TypeScript files at run time.
// `mesh dev` and `mesh start` do not use this; they load the same files through Mesh's own
// loader.
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

type ModuleLoader = () => Promise<unknown>;

const SOURCE_MODULES: Record<string, ModuleLoader> = {
  [join(PROJECT_ROOT, 'resolvers', 'mesh-source.ts')]: () => import('../../resolvers/mesh-source.ts'),
};

/** The catalogue source Mesh asks for by `id`, when it is ours; undefined otherwise. */
export function bundledModule(id: string): Promise<unknown> | undefined {
  return SOURCE_MODULES[id]?.();
}
