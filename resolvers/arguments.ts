// Argument rules shared by the GraphQL fields; broken rules are BAD_USER_INPUT errors that
// name the argument. (The REST layer checks its own parameters first, with REST names.)
import { badInput } from './errors.ts';
import type { IconFilter, License, SortKey } from './catalogue/filters.ts';
import { LOCALE_PATTERN } from './urls.ts';

export const MAX_PER_PAGE = 100;
export const MAX_QUERY_LENGTH = 200;

export interface PageArgs {
  page?: number | null;
  perPage?: number | null;
}

export function pageRequest({ page, perPage }: PageArgs): { page: number; perPage: number } {
  const p = page ?? 1;
  const size = perPage ?? 24;
  if (!Number.isInteger(p) || p < 1) throw badInput('page', `page must be a whole number of at least 1 (got ${p})`);
  if (!Number.isInteger(size) || size < 1 || size > MAX_PER_PAGE) {
    throw badInput('perPage', `perPage must be a whole number from 1 to ${MAX_PER_PAGE} (got ${size})`);
  }
  return { page: p, perPage: size };
}

/** PostgreSQL text cannot hold NUL, and no catalogue value contains control characters. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function plainText(argument: string, value: string): string {
  if (CONTROL_CHARACTERS.test(value)) throw badInput(argument, `${argument} must not contain control characters`);
  return value;
}

export function searchText(q: string): string {
  const text = plainText('q', q.trim());
  if (!text) throw badInput('q', 'q must not be empty');
  if ([...text].length > MAX_QUERY_LENGTH) throw badInput('q', `q must be at most ${MAX_QUERY_LENGTH} characters`);
  return text;
}

export type GraphQLSort = 'POPULAR' | 'NEWEST' | 'DOWNLOADS' | 'AZ';
export type GraphQLLicense = 'FREE' | 'PREMIUM';

export interface GraphQLFilter {
  category?: string | null;
  tag?: string | null;
  style?: string | null;
  color?: string | null;
  license?: GraphQLLicense | null;
}

export function sortKey(sort: GraphQLSort | null | undefined): SortKey | null {
  return sort ? (sort.toLowerCase() as SortKey) : null;
}

export function iconFilter(filter: GraphQLFilter | null | undefined): IconFilter {
  if (!filter) return {};
  const text = (name: keyof GraphQLFilter) => {
    const value = filter[name];
    return value == null ? value : plainText(`filter.${name}`, value);
  };
  return {
    category: text('category'),
    tag: text('tag'),
    style: text('style'),
    color: text('color'),
    license: filter.license ? (filter.license.toLowerCase() as License) : null,
  };
}

export function locale(value: string | null | undefined, fallback: string): string {
  if (value == null) return fallback;
  if (!LOCALE_PATTERN.test(value)) throw badInput('locale', `locale must look like "en" or "pt-BR" (got "${value}")`);
  return value;
}
