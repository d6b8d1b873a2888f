// The gateway's entry in .meshrc.yaml: its plugins, in the order their stages run within each
// phase, each a one-key map `<plugin name>: <its options>` as in Mesh's own plugin list, and
// the limits of the HTTP server that carries it (`server:`, server-options.ts).
import { z } from 'zod';
import { PLUGIN_FACTORIES } from './plugins/index.ts';
import { DEFAULT_SERVER_OPTIONS, serverOptions } from './server-options.ts';

const known = Object.keys(PLUGIN_FACTORIES);

const pluginEntry = z
  .record(z.string(), z.unknown())
  .refine((entry) => Object.keys(entry).length === 1, 'must be one plugin name with its options, such as "rate-limit: { hourlyLimit: 1000 }"')
  .refine((entry) => Object.keys(entry).every((name) => Object.hasOwn(PLUGIN_FACTORIES, name)), {
    message: `names no known plugin (known: ${known.join(', ')})`,
  });

export const gatewayOptions = z
  .object({
    server: serverOptions.default(DEFAULT_SERVER_OPTIONS),
    plugins: z
      .array(pluginEntry)
      .superRefine((entries, context) => {
        const seen = new Map<string, number>();
        entries.forEach((entry, index) => {
          const name = Object.keys(entry)[0]!;
          if (seen.has(name)) context.addIssue({ code: 'custom', path: [index], message: `"${name}" is already listed (plugins[${seen.get(name)}])` });
          seen.set(name, index);
        });
      }),
  })
  .strict();
