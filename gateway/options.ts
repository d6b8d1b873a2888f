// The gateway's entry in .meshrc.yaml: its plugins, in the order their stages run within each
// phase, each a one-key map `<plugin name>: <its options>` as in Mesh's own plugin list, the limits
// of the HTTP server that carries it (`server:`, server-options.ts), and who the client is
// (`trustedProxies`).
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

/** Plugins whose stages must run before another's in the same phase: [earlier, later, why]. */
const ORDER: readonly [string, string, string][] = [['auth-throttle', 'api-key-auth', 'a throttled address must be refused before its key is looked up']];

export const gatewayOptions = z
  .object({
    server: serverOptions.default(DEFAULT_SERVER_OPTIONS),
    /**
     * How many proxies (load balancers) stand in front of the gateway, each appending the address
     * it got the request from to X-Forwarded-For. 0: the socket's peer is the client, and
     * X-Forwarded-For, which any client can write, is ignored. @default 0
     */
    trustedProxies: z.number().int().min(0).max(10).default(0),
    plugins: z
      .array(pluginEntry)
      .superRefine((entries, context) => {
        const seen = new Map<string, number>();
        entries.forEach((entry, index) => {
          const name = Object.keys(entry)[0]!;
          if (seen.has(name)) context.addIssue({ code: 'custom', path: [index], message: `"${name}" is already listed (plugins[${seen.get(name)}])` });
          seen.set(name, index);
        });
        for (const [earlier, later, why] of ORDER) {
          const [first, second] = [seen.get(earlier), seen.get(later)];
          if (first !== undefined && second !== undefined && first > second) {
            context.addIssue({ code: 'custom', path: [first], message: `"${earlier}" must be listed before "${later}" (plugins[${second}]): ${why}` });
          }
        }
      }),
  })
  .strict();
