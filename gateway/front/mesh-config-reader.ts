// Mesh's own reading of a .meshrc.yaml (`findAndParseConfig` of @graphql-mesh/cli): find the
// file, check it against Mesh's JSON schema (warnings only, as Mesh does), process it. Mesh's
// version makes a new Ajv and compiles that large schema on every call, which holds the event
// loop for hundreds of milliseconds; a reload under load then stalls every request in flight.
// A reader compiles the schema on its first read and keeps the check for the reads after it.
// It also remembers where the packages a config names were found, and which were not: Mesh
// looks for a plugin under some twenty names (`@graphql-mesh/...-plugin`, `@envelop/...`)
// before the one given, each miss a walk up the node_modules folders; packages do not change
// under a running process (new code needs a restart, docs/reload.md).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { findConfig as FindConfig } from '@graphql-mesh/cli';
import type { processConfig as ProcessConfig } from '@graphql-mesh/config';
import type { ImportFn } from '@graphql-mesh/types';
import { DefaultLogger } from '@graphql-mesh/utils';
import type { ValidateFunction } from 'ajv';
import { logger } from '../../lib/logger.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

type ProcessedConfig = Awaited<ReturnType<typeof ProcessConfig>>;

export interface MeshConfigReader {
  /** The processed config of the .meshrc.yaml in `dir`, its modules loaded through `importFn`. */
  read(dir: string, importFn: ImportFn): Promise<ProcessedConfig>;
  /** Where the package `name` is, found from the project; throws the resolver's error when it is nowhere. */
  resolvePackage(name: string): string;
}

interface MeshConfigModules {
  findConfig: typeof FindConfig;
  processConfig: typeof ProcessConfig;
  compileSchemaCheck(): ValidateFunction;
}

/**
 * The modules `findAndParseConfig` uses, from where the pinned @graphql-mesh/cli finds them.
 * Its config module alone, not its entry: the entry also loads every CLI command (yargs, the
 * TypeScript compiler), seconds and tens of MB at start; if a new version moves the module,
 * the entry is used instead.
 */
function meshConfigModules(): MeshConfigModules {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@graphql-mesh/cli');
  const fromCli = createRequire(entry);
  let findConfig: typeof FindConfig;
  try {
    findConfig = (fromCli(join(dirname(entry), 'config.js')) as { findConfig: typeof FindConfig }).findConfig;
  } catch (error) {
    // Only a config module that is not where this version keeps it sends us to the entry; one
    // that is there and fails to load is a fault of its own, reported as it is.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
    logger.debug({ msg: `@graphql-mesh/cli has no config.js beside its entry (${code}): loading the whole CLI` });
    findConfig = (fromCli(entry) as { findConfig: typeof FindConfig }).findConfig;
  }
  const { processConfig } = fromCli('@graphql-mesh/config') as { processConfig: typeof ProcessConfig };
  return {
    findConfig,
    processConfig,
    compileSchemaCheck() {
      const { default: Ajv } = fromCli('ajv') as { default: typeof import('ajv').default };
      const { jsonSchema } = fromCli('@graphql-mesh/types') as { jsonSchema?: Record<string, unknown> };
      if (!jsonSchema) return Object.assign(() => true, { errors: null }) as unknown as ValidateFunction;
      // Mesh's schema names a draft Ajv does not know by default; Mesh drops it the same way.
      return new Ajv({ strict: false }).compile({ ...jsonSchema, $schema: undefined });
    },
  };
}

export function createMeshConfigReader(): MeshConfigReader {
  let modules: MeshConfigModules | undefined;
  let schemaCheck: ValidateFunction | undefined;
  const fromProject = createRequire(join(PROJECT_ROOT, 'package.json'));
  const packages = new Map<string, { path: string } | { error: unknown }>();
  return {
    resolvePackage(name) {
      let found = packages.get(name);
      if (!found) {
        try {
          found = { path: fromProject.resolve(name) };
        } catch (error) {
          found = { error };
        }
        packages.set(name, found);
      }
      if ('error' in found) throw found.error;
      return found.path;
    },
    async read(dir, importFn) {
      modules ??= meshConfigModules();
      const { config, filepath } = await modules.findConfig({ dir, importFn });
      schemaCheck ??= modules.compileSchemaCheck();
      if (!schemaCheck(config)) {
        // As Mesh says it: a warning, the config is used as it is.
        const warnings = new DefaultLogger('').child('config');
        warnings.warn(`Configuration file ${filepath} is not valid! This is just a warning! It doesn't have any effects on runtime.`);
        for (const error of schemaCheck.errors ?? []) warnings.warn(`${error.instancePath || '/'}: ${error.message}`);
      }
      return modules.processConfig(config, { dir, importFn, logger: new DefaultLogger('') });
    },
  };
}
