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
  }
}

const INTEGER = /^[+-]?\d{1,15}$/;

/** The GraphQL value of one raw parameter value, or a ParamError naming the parameter. */
export function convertParam(name: string, rule: ParamRule, raw: string): unknown {
  const broken = () => new ParamError(name, `${name} must be ${describeRule(rule)} (got ${JSON.stringify(truncate(raw))})`);
  switch (rule.type) {
    case 'integer': {
      if (!INTEGER.test(raw.trim())) throw broken();
      const value = Number(raw.trim());
      if ((rule.minimum !== undefined && value < rule.minimum) || (rule.maximum !== undefined && value > rule.maximum)) throw broken();
      // GraphQL's Int is 32-bit; a page beyond it is past the last page anyway.
      if (!Number.isSafeInteger(value) || Math.abs(value) > 2 ** 31 - 1) throw broken();
      return value;
    }
    case 'string': {
      const value = raw.trim();
      // PostgreSQL text cannot hold NUL, and no catalogue value has control characters.
      if (CONTROL_CHARACTERS.test(value)) throw new ParamError(name, `${name} must not contain control characters`);
      const length = [...value].length;
      if (length < Math.max(rule.minLength ?? 1, 1)) {
        throw new ParamError(name, `${name} must not be empty`);
      }
      if (rule.maxLength !== undefined && length > rule.maxLength) {
        throw new ParamError(name, `${name} must be at most ${rule.maxLength} characters long (got ${length})`);
      }
      return value;
    }
    case 'enum': {
      const value = rule.values[raw.trim().toLowerCase()];
      if (value === undefined || !Object.hasOwn(rule.values, raw.trim().toLowerCase())) throw broken();
      return value;
    }
    case 'flag':
      if (raw.trim() === '1') return true;
      if (raw.trim() === '0') return false;
      throw broken();
  }
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Variables for a route from its query string (declared parameters only; others are ignored)
 * and its path parameters. Defaults are applied, so the response's meta shows what was used.
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
    if (raw === undefined || (raw.trim() === '' && rule.type !== 'string')) {
      if (rule.required) throw new ParamError(name, `${name} is required`);
      if (rule.default !== undefined) variables[variable] = convertParam(name, rule, String(rule.default));
      continue;
    }
    variables[variable] = convertParam(name, rule, raw);
  }
  return variables;
}
