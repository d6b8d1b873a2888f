// Turns a request's query and path parameters into GraphQL variables by a route's declared
// rules, or says, in words a client can act on, which parameter broke which rule.
import type { ParamRule } from './options.ts';
import { CONTROL_CHARACTERS } from '../../../resolvers/arguments.ts';
import { describeWholeNumber } from '../../../resolvers/constraints.ts';

export class ParamError extends Error {
  override name = 'ParamError';
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a rule accepts, as the end of a sentence: "page must be <this>". */
export function describeRule(rule: ParamRule): string {
  switch (rule.type) {
    case 'integer':
      return describeWholeNumber(rule.minimum, rule.maximum);
    case 'string':
      if (rule.maxLength !== undefined) return `from ${Math.max(rule.minLength ?? 0, 1)} to ${rule.maxLength} characters long`;
      return 'a non-empty text';
    case 'enum':
      return `one of: ${Object.keys(rule.values).join(', ')}`;
    case 'flag':
      return '0 or 1';
    case 'list':
      return `a comma-separated list of 1 to ${rule.maxItems} ${rule.items === 'integer' ? 'whole numbers' : 'values'}`;
  }
}

const INTEGER = /^[+-]?\d{1,15}$/;

/** The largest value of GraphQL's Int (32-bit signed), and so of any integer parameter. */
export const INT32_MAX = 2 ** 31 - 1;

/**
 * The GraphQL value of one raw parameter value, or a ParamError naming the parameter. Values are
 * taken as the OpenAPI document describes them: integers, enum values and flags exactly as
 * written (no surrounding spaces, enum values in lower case); texts are trimmed.
 */
export function convertParam(name: string, rule: ParamRule, raw: string): unknown {
  const broken = () => new ParamError(name, `${name} must be ${describeRule(rule)} (got ${JSON.stringify(truncate(raw))})`);
  switch (rule.type) {
    case 'integer': {
      if (!INTEGER.test(raw)) throw broken();
      const value = Number(raw);
      if ((rule.minimum !== undefined && value < rule.minimum) || (rule.maximum !== undefined && value > rule.maximum)) throw broken();
      // A parameter filling an Int argument has its 32-bit range as bounds (route-table.ts); this
      // guards one that fills none.
      if (Math.abs(value) > INT32_MAX) throw broken();
      return value;
    }
    case 'string': {
      const value = raw.trim();
      // PostgreSQL text cannot hold NUL, and no catalogue value has control characters.
      if (CONTROL_CHARACTERS.test(value)) throw new ParamError(name, `${name} must not contain control characters`);
      const length = [...value].length;
      const minLength = Math.max(rule.minLength ?? 1, 1);
      if (length < minLength) {
        throw new ParamError(name, minLength === 1 ? `${name} must not be empty` : `${name} must be at least ${minLength} characters long (got ${length})`);
      }
      if (rule.maxLength !== undefined && length > rule.maxLength) {
        throw new ParamError(name, `${name} must be at most ${rule.maxLength} characters long (got ${length})`);
      }
      return value;
    }
    case 'enum': {
      if (!Object.hasOwn(rule.values, raw)) throw broken();
      return rule.values[raw];
    }
    case 'flag':
      if (raw === '1') return true;
      if (raw === '0') return false;
      throw broken();
    case 'list': {
      const items = raw.split(',').map((item) => item.trim());
      if (items.length > rule.maxItems) throw new ParamError(name, `${name} must list at most ${rule.maxItems} values (got ${items.length})`);
      return items.map((item, index) => {
        if (item === '') throw new ParamError(name, `${name} must not have an empty value (value ${index + 1})`);
        if (rule.items === 'integer') {
          if (!INTEGER.test(item) || Math.abs(Number(item)) > INT32_MAX) throw new ParamError(name, `${name} must list whole numbers (got ${JSON.stringify(truncate(item))})`);
          return Number(item);
        }
        return convertParam(name, { type: 'string', maxLength: rule.maxLength, required: false }, item);
      });
    }
  }
}

/** An empty value, or one of spaces only: the same as leaving the parameter out. */
export function isBlank(raw: string): boolean {
  return raw.trim() === '';
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Variables for a route from its query string (declared parameters only; others are ignored)
 * and its path parameters. A blank value counts as absent, whatever the parameter's type.
 * Defaults are applied, so the response's meta shows what was used.
 */
export function variablesFor(
  params: Record<string, ParamRule>,
  query: URLSearchParams,
  pathParams: Record<string, string> = {},
): Record<string, unknown> {
  const variables: Record<string, unknown> = { ...pathParams };
  for (const [name, rule] of Object.entries(params)) {
    const values = query.getAll(name);
    if (values.length > 1) throw new ParamError(name, `${name} must be given at most once`);
    const variable = rule.variable ?? name;
    const raw = values[0];
    if (raw === undefined || isBlank(raw)) {
      if (rule.required) throw new ParamError(name, raw === undefined ? `${name} is required` : `${name} must not be empty`);
      if (rule.default !== undefined) variables[variable] = convertParam(name, rule, String(rule.default));
      continue;
    }
    variables[variable] = convertParam(name, rule, raw);
  }
  return variables;
}
