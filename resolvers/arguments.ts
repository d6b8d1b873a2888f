// Argument rules shared by the GraphQL fields; broken rules are BAD_USER_INPUT errors that
// name the argument. Bounds come from the schema's @constraint (constraints.ts). (The REST
// layer checks its own parameters first, with REST names, against the same bounds.)
import type { GraphQLResolveInfo } from 'graphql';
import { argumentOf, boundsOf, describeWholeNumber } from './constraints.ts';
import { badInput } from './errors.ts';
import type { IconFilter, License, SortKey } from './catalogue/filters.ts';
import { LOCALE_PATTERN } from './urls.ts';

export interface PageArgs {
  page?: number | null;
  perPage?: number | null;
}

/** A whole-number argument within its @constraint bounds; its schema default when null. */
export function wholeNumber(info: GraphQLResolveInfo, name: string, given: number | null | undefined): number {
  const argument = argumentOf(info, name);
  const value = given ?? (argument.defaultValue as number);
  const { min, max } = boundsOf(argument);
  if (!Number.isInteger(value) || (min !== undefined && value < min) || (max !== undefined && value > max)) {
    throw badInput(name, `${name} must be ${describeWholeNumber(min, max)} (got ${value})`);
  }
  return value;
}

export function pageRequest({ page, perPage }: PageArgs, info: GraphQLResolveInfo): { page: number; perPage: number } {
  return { page: wholeNumber(info, 'page', page), perPage: wholeNumber(info, 'perPage', perPage) };
}

/** PostgreSQL text cannot hold NUL, and no catalogue value contains control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function plainText(argument: string, value: string): string {
  if (CONTROL_CHARACTERS.test(value)) throw badInput(argument, `${argument} must not contain control characters`);
  return value;
}

/** The search text, trimmed, within the `q` argument's @constraint bounds. */
export function searchText(q: string, info: GraphQLResolveInfo): string {
  const text = plainText('q', q.trim());
  const { minLength = 1, maxLength } = boundsOf(argumentOf(info, 'q'));
  const length = [...text].length;
  if (length === 0 || length < minLength) throw badInput('q', minLength > 1 ? `q must be at least ${minLength} characters` : 'q must not be empty');
  if (maxLength !== undefined && length > maxLength) throw badInput('q', `q must be at most ${maxLength} characters`);
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
  set?: readonly string[] | null;
}

export function sortKey(sort: GraphQLSort | null | undefined): SortKey | null {
  return sort ? (sort.toLowerCase() as SortKey) : null;
}

export function iconFilter(filter: GraphQLFilter | null | undefined): IconFilter {
  if (!filter) return {};
  const text = (name: 'category' | 'tag' | 'style' | 'color') => {
    const value = filter[name];
    return value == null ? value : plainText(`filter.${name}`, value);
  };
  return {
    category: text('category'),
    tag: text('tag'),
    style: text('style'),
    color: text('color'),
    license: filter.license ? (filter.license.toLowerCase() as License) : null,
    set: filter.set == null ? filter.set : setPrefixes(filter.set),
  };
}

/** At most this many set prefixes in one filter (there are a few hundred sets). */
export const MAX_SET_PREFIXES = 50;

function setPrefixes(prefixes: readonly string[]): string[] {
  if (prefixes.length === 0) throw badInput('filter.set', 'filter.set must list at least one set prefix');
  if (prefixes.length > MAX_SET_PREFIXES) throw badInput('filter.set', `filter.set must list at most ${MAX_SET_PREFIXES} set prefixes (got ${prefixes.length})`);
  return prefixes.map((prefix) => plainText('filter.set', prefix));
}

/** Whether any filter is given (an input object whose fields are all null filters nothing). */
export function hasFilter(filter: IconFilter): boolean {
  return Object.values(filter).some((value) => value != null);
}

export function locale(value: string | null | undefined, fallback: string): string {
  if (value == null) return fallback;
  if (!LOCALE_PATTERN.test(value)) throw badInput('locale', `locale must look like "en" or "pt-BR" (got "${value}")`);
  return value;
}
