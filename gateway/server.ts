// The gateway's HTTP server: GraphQL at /graphql over the catalogue schema, behind API-key auth.
import { createServer, type Server } from 'node:http';
import { createYoga } from 'graphql-yoga';
import type { PrismaClient } from '../prisma/generated/client.ts';
import type { CatalogueContext } from '../resolvers/context.ts';
import { createCatalogueSchema } from '../resolvers/schema.ts';
import { DEFAULT_URL_TEMPLATES, type UrlTemplates } from '../resolvers/urls.ts';
import { useApiKeyAuth } from './plugins/api-key-auth.ts';
import { useQueryLimits } from './plugins/query-limits.ts';

export interface GatewayOptions {
  prisma: PrismaClient;
  urls?: UrlTemplates;
  allowAnonymous?: boolean;
}

export function createGateway({ prisma, urls = DEFAULT_URL_TEMPLATES, allowAnonymous = false }: GatewayOptions) {
  const yoga = createYoga<Record<string, unknown>, Partial<CatalogueContext>>({
    schema: createCatalogueSchema(),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    context: () => ({ prisma, urls }),
    plugins: [useApiKeyAuth({ prisma, allowAnonymous }), ...useQueryLimits()],
  });
  return yoga;
}

export function listen(handler: ReturnType<typeof createGateway>, port: number, host?: string): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
