// The .meshrc.yaml `npm start` serves, checked before Mesh reads it, so that a missing file,
// broken YAML or a source module that cannot be found stops the start with one line naming
// the file and the key, instead of Mesh's logs and a stack trace. And where the modules it
// names by relative path are found: beside the config first, then in the project, so that a
// verbatim copy of the project's .meshrc.yaml in another folder (GATEWAY_CONFIG_DIR) works.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { ConfigError } from '../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export const MESH_CONFIG_FILE = '.meshrc.yaml';

/** The first line of an error's message (YAML and module errors add snippets and stacks). */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]!.trim().replace(/:$/, '');
}

/** The parsed .meshrc.yaml of `dir`; ConfigError when it is missing or not YAML. */
export async function readMeshConfig(dir: string): Promise<{ file: string; raw: unknown }> {
  const file = join(dir, MESH_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : firstLine(error);
    const hint = dir === PROJECT_ROOT ? '' : ' (GATEWAY_CONFIG_DIR must name a folder that holds a .meshrc.yaml)';
    throw new ConfigError(`${file}: ${reason}${hint}`);
  }
  try {
    return { file, raw: parse(text) };
  } catch (error) {
    throw new ConfigError(`${file}: ${firstLine(error)}`);
  }
}

/**
 * Where a module the config names lives: a relative path beside the config when that file
 * exists there, else in the project (`./resolvers/mesh-source.ts` of a copied config is the
 * project's); an absolute path as it is; a package name resolved from the project.
 */
export function moduleLocation(id: string, configDir: string, resolvePackage: (id: string) => string): string {
  if (isAbsolute(id)) return id;
  if (!id.startsWith('./') && !id.startsWith('../')) return resolvePackage(id);
  const besideConfig = resolve(configDir, id);
  return existsSync(besideConfig) ? besideConfig : resolve(PROJECT_ROOT, id);
}

/** The code modules of `sources[i].handler.graphql.source` (not URLs, not .graphql files). */
function sourceModules(raw: unknown): { key: string; path: string }[] {
  const sources = (raw as { sources?: unknown } | null)?.sources;
  if (!Array.isArray(sources)) return [];
  return sources.flatMap((source, index) => {
    const path = (source as { handler?: { graphql?: { source?: unknown } } } | null)?.handler?.graphql?.source;
    if (typeof path !== 'string' || /^https?:\/\//.test(path) || /\.graphqls?$/.test(path)) return [];
    return [{ key: `sources[${index}].handler.graphql.source`, path }];
  });
}

/** Loads each source module now; ConfigError naming the key when one cannot be loaded. */
export async function checkSourceModules(raw: unknown, file: string, importModule: (id: string) => Promise<unknown>): Promise<void> {
  for (const { key, path } of sourceModules(raw)) {
    const [modulePath = path] = path.split('#');
    try {
      await importModule(modulePath);
    } catch (error) {
      const where = /^\.\.?\//.test(modulePath) ? ' (looked beside the config, then in the project)' : '';
      throw new ConfigError(`${file}: ${key}: cannot load "${path}"${where}: ${firstLine(error)}`);
    }
  }
}
