// GraphQL Mesh built from a .meshrc.yaml by Mesh's own config loader, with the gateway in it:
// Mesh asks for `@icon-catalogue/gateway` through our import function, which answers with a
// factory bound to the front's database and keeps the gateway Mesh builds with it. The served
// schema's envelope is then handed to the gateway, so a route that does not fit the schema
// stops the start before any slow work. Whatever goes wrong while the config is read and Mesh
// built from it is a ConfigError: one line naming the file, no stack.
import { resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { getMesh, type MeshInstance } from '@graphql-mesh/runtime';
import { handleImport } from '@graphql-mesh/utils';
import { ConfigError } from '../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { GATEWAY_PLUGIN_NAME, type Gateway, type GatewayHost } from '../gateway.ts';
import { meshPluginFactory } from '../index.ts';
import { bundledModule } from './bundled-modules.ts';
import { checkSourceModules, firstLine, moduleLocation, readMeshConfig } from './mesh-config-file.ts';
import { createMeshConfigReader, type MeshConfigReader } from './mesh-config-reader.ts';

export interface LoadedMesh {
  mesh: MeshInstance;
  gateway: Gateway;
  /** Mesh's `serve` section, for its HTTP handler. */
  serve: unknown;
  /** The folder of the .meshrc.yaml. */
  dir: string;
  /** The .meshrc.yaml itself. */
  file: string;
  /** How it was read; a reload reads with it again (it keeps Mesh's compiled schema check). */
  reader: MeshConfigReader;
}

export function configDir(env = process.env): string {
  return env.GATEWAY_CONFIG_DIR ? resolve(env.GATEWAY_CONFIG_DIR) : PROJECT_ROOT;
}

/**
 * Mesh and its gateway from the .meshrc.yaml in `dir` (default: GATEWAY_CONFIG_DIR, else the
 * project); a reload passes the mesh it replaces, whose reader it reads with. The build yields
 * to the event loop between its steps, so that a reload beside a serving gateway lets the
 * requests meanwhile through between them rather than after it all.
 */
export async function loadMesh(host: GatewayHost, dir = configDir(host.env), previous?: LoadedMesh): Promise<LoadedMesh> {
  const reader = previous?.reader ?? createMeshConfigReader();
  const { file, raw } = await readMeshConfig(dir);
  await nextTurn();
  const built: Gateway[] = [];
  const factory = meshPluginFactory(host, (gateway) => built.push(gateway));
  const gatewayModule = { default: (options: Record<string, unknown>) => nextTurn().then(() => factory(options)) };
  const importModule = (id: string): Promise<unknown> => {
    if (id === GATEWAY_PLUGIN_NAME) return Promise.resolve(gatewayModule);
    const location = moduleLocation(id, dir, (name) => reader.resolvePackage(name));
    return bundledModule(location) ?? import(pathToFileURL(location).href);
  };
  const importFn = <T>(id: string) => importModule(id).then(handleImport) as Promise<T>;
  await checkSourceModules(raw, file, importFn);
  await nextTurn();
  let mesh: MeshInstance | undefined;
  try {
    const config = await asConfigError(file, () => reader.read(dir, importFn));
    await nextTurn();
    const [gateway, ...more] = built;
    if (!gateway) throw new ConfigError(`${file} lists no ${GATEWAY_PLUGIN_NAME} plugin`);
    if (more.length) throw new ConfigError(`${file} lists ${GATEWAY_PLUGIN_NAME} more than once`);
    mesh = await asConfigError(file, () => getMesh(config));
    await nextTurn();
    gateway.bind(mesh.getEnveloped);
    return { mesh, gateway, serve: config.config.serve, dir, file, reader };
  } catch (error) {
    // A reload that fails here must leave nothing behind beside the gateway still serving:
    // what the new gateways made is closed, what they share with it stays (shared-resources.ts).
    mesh?.destroy();
    await Promise.all(built.map((gateway) => gateway.close()));
    throw error;
  }
}

/** Mesh's own failures while reading the config or building from it, as one line naming the file. */
async function asConfigError<T>(file: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${file}: ${firstLine(error)}`, { cause: error });
  }
}
