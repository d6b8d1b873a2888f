// Gives the catalogue's resolvers what they need in every GraphQL context, REST operations
// included (they run through the same envelope): the database, the caller's account (set by
// the API-key stage on the request's exchange), its rate-limit standing (counted by the limit
// stage on the same exchange: `usage` reads it, no second count), the URL templates from
// .meshrc.yaml and the signer of premium files' addresses. Templates given as paths are made
// absolute on the gateway's public base URL: `publicUrl`, else PUBLIC_URL, else
// http://localhost:<the port the request came in on>; never the Host header, which any client writes.
import { join } from 'node:path';
import { useExtendContext } from '@envelop/core';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import { validateConfig } from '../../../lib/config-validation.ts';
import { DEFAULT_PORT, portFromEnv } from '../../../lib/listen-port.ts';
import { PROJECT_ROOT } from '../../../lib/project-root.ts';
import { createUrlSigner, signingSecret, type UrlSigner } from '../../../lib/url-signing.ts';
import type { CatalogueContext } from '../../../resolvers/context.ts';
import { urlTemplate, type UrlTemplates } from '../../../resolvers/urls.ts';
import type { RequestCarrier } from '../../pipeline/exchange.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { parsePluginOptions } from '../options.ts';
import { catalogueContextOptions, publicBaseUrl } from './options.ts';

/** Where the signing secret is made when URL_SIGNING_SECRET is not set (beside the embedded database). */
const DATA_DIR = join(PROJECT_ROOT, '.data');

export const useCatalogueContext: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const { urls, publicUrl, signedUrlSeconds } = parsePluginOptions(catalogueContextOptions, rawOptions, where);
  const env = services.env;
  const fixedBase = publicUrl ?? (env.PUBLIC_URL ? validateConfig(publicBaseUrl, env.PUBLIC_URL, 'the environment', ['PUBLIC_URL']) : undefined);
  // The port npm start listens on (0, any free port, names none: then the default).
  const fallbackPort = portFromEnv(env) || DEFAULT_PORT;
  /** A template that is a path is on `base`; an absolute URL stays as written. */
  const on = (base: string, template: string) => urlTemplate(template.startsWith('/') ? `${base}${template}` : template);
  const onBase = (base: string): UrlTemplates => ({ svgUrl: on(base, urls.svgUrl), previewUrl: on(base, urls.previewUrl), pageUrl: on(base, urls.pageUrl), defaultLocale: urls.defaultLocale });
  const fixed = fixedBase === undefined ? undefined : onBase(fixedBase);
  const byPort = new Map<number, UrlTemplates>();
  const templatesFor = (context: RequestCarrier): UrlTemplates => {
    if (fixed) return fixed;
    const port = context.req?.socket?.localPort ?? fallbackPort;
    let templates = byPort.get(port);
    if (!templates) {
      templates = onBase(`http://localhost:${port}`);
      byPort.set(port, templates);
    }
    return templates;
  };
  // Made on first use: `mesh build` loads the plugins without serving anything.
  let signer: UrlSigner | undefined;
  const signedUrls = () => {
    signer ??= createUrlSigner(signingSecret(env, DATA_DIR));
    return { signer, seconds: signedUrlSeconds };
  };

  const extend = useExtendContext(
    async (context: RequestCarrier): Promise<CatalogueContext> => {
      const { prisma, reads } = await services.database();
      const exchange = services.exchangeOf(context);
      return { prisma, reads, viewer: exchange?.caller?.viewer ?? null, rateLimit: exchange?.rateLimit ?? null, urls: templatesFor(context), signedUrls: signedUrls() };
    },
  );
  return { name: 'catalogue-context', yoga: [extend as YogaPlugin] };
};
