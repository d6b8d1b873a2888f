// A gateway config of a test's own: the project's .meshrc.yaml, edited, in a temporary folder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

/** Runs `work` with a temporary folder holding the project's .meshrc.yaml, edited by `edit`. */
export async function withConfig<T>(edit: (config: string) => string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-config-'));
  try {
    // Copied as it is: its relative `source:` is found in the project (gateway/front/mesh-config-file.ts).
    const original = await readFile(join(PROJECT_ROOT, '.meshrc.yaml'), 'utf8');
    await writeFile(join(dir, '.meshrc.yaml'), edit(original));
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An edit for withConfig: the gateway's `server:` section replaced by `options` (the rest at their defaults). */
export function serverSection(options: Record<string, number>): (config: string) => string {
  const section = /^(?: {6}#.*\n)* {6}server:\n(?: {8}.*\n)+/m; // with the comment above it
  const entry = '"@icon-catalogue/gateway":\n';
  return (config) => {
    const without = config.replace(section, '');
    if (without === config || !without.includes(entry)) throw new Error('.meshrc.yaml no longer lists the gateway and its server: section as serverSection expects');
    return without.replace(entry, `${entry}      server: ${JSON.stringify(options)}\n`);
  };
}

/** `config` with each `[from, to]` replaced once; throws when `from` is not there any more. */
export function edit(config: string, replacements: [string, string][]): string {
  let edited = config;
  for (const [from, to] of replacements) {
    if (!edited.includes(from)) throw new Error(`.meshrc.yaml no longer has ${JSON.stringify(from)}`);
    edited = edited.replace(from, to);
  }
  return edited;
}

/** An edit that adds the route of issue 50's report, `/categories/{category}/icons` onto ListIcons (before `/icons/{ref}`). */
export const CATEGORY_ICONS_ROUTE: [string, string] = [
  '              - path: /icons/{ref}\n',
  `              - path: /categories/{category}/icons
                operation: ListIcons
                envelope: page
                summary: Icons of one category
                cache: { seconds: 30, scope: shared }
                params:
                  page: { type: integer, default: 1, description: Page number }

              - path: /icons/{ref}
`,
];
