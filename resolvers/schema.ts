// The executable catalogue schema: SDL from schema.graphql, resolvers from resolvers.ts.
// Building it checks that every resolver names a field of the schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers.ts';
import { PROJECT_ROOT } from '../lib/project-root.ts';

export const CATALOGUE_SDL = readFileSync(join(PROJECT_ROOT, 'resolvers', 'schema.graphql'), 'utf8');

export function createCatalogueSchema(): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: CATALOGUE_SDL,
    resolvers,
    resolverValidationOptions: { requireResolversToMatchSchema: 'error', requireResolversForArgs: 'error' },
  });
}
