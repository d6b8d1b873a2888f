// The executable catalogue schema: SDL from schema.graphql, resolvers from resolvers.ts.
// Building it checks that every resolver names a field of the schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import { unavailableError } from './errors.ts';
import { resolvers } from './resolvers.ts';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import { databaseUnavailability } from '../prisma/unavailable.ts';

export const CATALOGUE_SDL = readFileSync(join(PROJECT_ROOT, 'resolvers', 'schema.graphql'), 'utf8');

export function createCatalogueSchema(): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: CATALOGUE_SDL,
    resolvers: reportingUnavailability(resolvers),
    resolverValidationOptions: { requireResolversToMatchSchema: 'error', requireResolversForArgs: 'error' },
  });
}

type Resolver = (...args: unknown[]) => unknown;

/** `error`, or the SERVICE_UNAVAILABLE error it becomes when the database could not answer. */
function asReported(error: unknown): unknown {
  const unavailable = databaseUnavailability(error);
  return unavailable ? unavailableError(unavailable) : error;
}

/**
 * The resolvers, each turning a failure of the database into SERVICE_UNAVAILABLE (errors.ts)
 * wherever it surfaces (a root field, a nested field's loader). Synchronous answers pass as they are.
 */
function reportingUnavailability<T extends IResolvers>(map: T): T {
  const wrap =
    (resolve: Resolver): Resolver =>
    (...args) => {
      let result: unknown;
      try {
        result = resolve(...args);
      } catch (error) {
        throw asReported(error);
      }
      return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(asReported(error))) : result;
    };
  return Object.fromEntries(
    Object.entries(map).map(([type, fields]) => [
      type,
      typeof fields === 'object' && fields !== null
        ? Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, typeof field === 'function' ? wrap(field as Resolver) : field]))
        : fields,
    ]),
  ) as T;
}
