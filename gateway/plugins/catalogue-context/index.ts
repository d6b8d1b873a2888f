// Gives the catalogue's resolvers what they need in every GraphQL context, REST operations
// included (they run through the same envelope): the database, the caller's account (set by
// the API-key stage on the request's exchange) and the URL templates from .meshrc.yaml.
import { useExtendContext } from '@envelop/core';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import type { CatalogueContext } from '../../../resolvers/context.ts';
import type { RequestCarrier } from '../../pipeline/exchange.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { parsePluginOptions } from '../options.ts';
import { catalogueContextOptions } from './options.ts';

export const useCatalogueContext: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const { urls } = parsePluginOptions(catalogueContextOptions, rawOptions, where);
  const extend = useExtendContext(
    async (context: RequestCarrier): Promise<CatalogueContext> => {
      const { prisma, reads } = await services.database();
      return { prisma, reads, viewer: services.exchangeOf(context)?.caller?.viewer ?? null, urls };
    },
  );
  return { name: 'catalogue-context', yoga: [extend as YogaPlugin] };
};
