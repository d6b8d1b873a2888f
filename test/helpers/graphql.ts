// Runs GraphQL operations against the catalogue schema in-process, as a given caller.
import { graphql, type ExecutionResult } from 'graphql';
import type { Database } from '../../prisma/database.ts';
import type { CatalogueContext, Viewer } from '../../resolvers/context.ts';
import { createCatalogueSchema } from '../../resolvers/schema.ts';
import { DEFAULT_URL_TEMPLATES } from '../../resolvers/urls.ts';

const schema = createCatalogueSchema();

export function executor({ prisma, reads }: Pick<Database, 'prisma' | 'reads'>) {
  return async function run<T = Record<string, unknown>>(
    source: string,
    variableValues: Record<string, unknown> = {},
    viewer: Viewer | null = null,
  ): Promise<ExecutionResult<T>> {
    const contextValue: CatalogueContext = { prisma, reads, viewer, urls: DEFAULT_URL_TEMPLATES };
    return (await graphql({ schema, source, variableValues, contextValue })) as ExecutionResult<T>;
  };
}

/** The data of a successful result; fails the test with the errors otherwise. */
export function dataOf<T>(result: ExecutionResult<T>): T {
  if (result.errors?.length) throw new Error(`GraphQL errors: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.data as T;
}

export function errorCodes(result: ExecutionResult): unknown[] {
  return (result.errors ?? []).map((error) => error.extensions?.code);
}
