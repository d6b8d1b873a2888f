// Runs GraphQL operations against the catalogue schema in-process, as a given caller.
import { graphql, type ExecutionResult } from 'graphql';
import type { Database } from '../../prisma/database.ts';
import type { CatalogueContext, Viewer } from '../../resolvers/context.ts';
import { createCatalogueSchema } from '../../resolvers/schema.ts';
import { urlTemplate, type UrlTemplates } from '../../resolvers/urls.ts';

const schema = createCatalogueSchema();

/** Absolute addresses, as behind a CDN: the resolvers' tests run without a gateway to give them its base URL. */
export const TEST_URL_TEMPLATES: UrlTemplates = {
  svgUrl: urlTemplate('https://cdn.icon-catalogue.example/svg/{prefix}/{name}.svg?v={v}'),
  previewUrl: urlTemplate('https://cdn.icon-catalogue.example/preview/{prefix}/{name}.png?v={v}'),
  pageUrl: urlTemplate('https://icon-catalogue.example/{locale}/icons/{slug}'),
  defaultLocale: 'en',
};

export function executor({ prisma, reads }: Pick<Database, 'prisma' | 'reads'>) {
  return async function run<T = Record<string, unknown>>(
    source: string,
    variableValues: Record<string, unknown> = {},
    viewer: Viewer | null = null,
  ): Promise<ExecutionResult<T>> {
    const contextValue: CatalogueContext = { prisma, reads, viewer, urls: TEST_URL_TEMPLATES };
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
