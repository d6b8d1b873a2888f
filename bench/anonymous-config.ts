// The anonymous callers of Iconify's protocol scenarios (issue 47) need an hourly limit no load
// run reaches, for the load generator's address only. The gateway gets it as a maintainer would:
// by config, in a copy of the project's .meshrc.yaml (GATEWAY_CONFIG_DIR) whose rate-limit entry
// gives 127.0.0.1 and ::1 their own anonymous limit (anonymousAddressLimits). The project's file
// keeps none: behind a proxy on the same host every client would be 127.0.0.1.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument, type YAMLMap } from 'yaml';

/** The rate-limit plugin's options in the gateway's plugin list, or undefined when it is not listed. */
function rateLimitEntry(document: ReturnType<typeof parseDocument>): YAMLMap | undefined {
  const plugins = document.get('plugins');
  if (!isSeq(plugins)) return undefined;
  for (const plugin of plugins.items) {
    const gateway = isMap(plugin) ? plugin.get('@icon-catalogue/gateway') : undefined;
    const list = isMap(gateway) ? gateway.get('plugins') : undefined;
    if (!isSeq(list)) continue;
    for (const entry of list.items) {
      const options = isMap(entry) ? entry.get('rate-limit') : undefined;
      if (isMap(options)) return options;
    }
  }
  return undefined;
}

/** Writes `dir`/.meshrc.yaml: `projectConfig` with `hourlyLimit` for anonymous callers on the loopback addresses. */
export async function writeAnonymousConfig(projectConfig: string, dir: string, hourlyLimit: number): Promise<string> {
  const document = parseDocument(await readFile(projectConfig, 'utf8'));
  const options = rateLimitEntry(document);
  if (!options) throw new Error(`${projectConfig} lists no rate-limit plugin to raise the anonymous limit of`);
  options.set('anonymousAddressLimits', document.createNode([{ addresses: ['127.0.0.1', '::1'], hourlyLimit }]));
  await mkdir(dir, { recursive: true });
  const file = join(dir, '.meshrc.yaml');
  await writeFile(file, document.toString());
  return file;
}
