// The REST layer's declared rules: route-table validation with messages naming the key, and
// parameter conversion with messages naming the parameter and the rule.
import { describe, expect, it } from 'vitest';
import { ConfigError, validateConfig } from '../../lib/config-validation.ts';
import { convertParam, describeRule, ParamError, variablesFor } from '../../gateway/plugins/rest-routes/params.ts';
import { restRoutesOptions, type ParamRule } from '../../gateway/plugins/rest-routes/options.ts';

const where = ['plugins', '@icon-catalogue/gateway', 'plugins', 6, 'rest-routes'];
const validate = (options: unknown) => validateConfig(restRoutesOptions, options, '.meshrc.yaml', where);
const route = (extra: Record<string, unknown> = {}) => ({ path: '/icons', operation: 'ListIcons', envelope: 'page', ...extra });

describe('route table validation', () => {
  it('fills defaults', () => {
    const options = validate({ routes: [route()] });
    expect(options.operations).toBe('gateway/operations');
    expect(options.openapi.path).toBe('/openapi.json');
    expect(options.routes[0]!.params).toEqual({});
  });

  it.each([
    [{ routes: [] }, 'plugins["@icon-catalogue/gateway"].plugins[6]["rest-routes"].routes: must list at least one route'],
    [{ routes: [route({ path: 'icons' })] }, '.routes[0].path: must be a path like /icons'],
    [{ routes: [route({ envelope: 'list' })] }, '.routes[0].envelope'],
    [{ routes: [route(), route({ operation: 'Other' })] }, '.routes[1].path: "/icons" is already routed (routes[0])'],
    [{ routes: [route({ params: { page: { type: 'integer', minimum: 5, maximum: 1 } } })] }, '.routes[0].params.page.maximum: must not be below minimum (5)'],
    [{ routes: [route({ params: { page: { type: 'integer', minimum: 1, default: 0 } } })] }, '.routes[0].params.page.default: must lie within minimum and maximum'],
    [{ routes: [route({ params: { sort: { type: 'enum', values: { az: 'AZ' }, default: 'za' } } })] }, '.routes[0].params.sort.default: must be one of the values (az)'],
    [{ routes: [route({ params: { perPage: { type: 'integer' } } })] }, '.routes[0].params.perPage'],
    [{ routes: [route({ params: { page: { type: 'number' } } })] }, '.routes[0].params.page.type'],
    [{ routes: [route({ params: { page: { type: 'integer', minimun: 1 } } })] }, 'minimun'],
    [{ routes: [route({ path: '/icons/{ref}', params: { ref: { type: 'string' } } })] }, '.routes[0].params.ref: is a path parameter'],
    [{ routes: [route()], extra: true }, 'extra'],
  ])('rejects %j, naming the key', (options, message) => {
    expect(() => validate(options)).toThrow(ConfigError);
    expect(() => validate(options)).toThrow(message);
  });
});

describe('parameters', () => {
  const perPage: ParamRule = { type: 'integer', minimum: 1, maximum: 100, default: 24, variable: 'perPage', required: false };
  const sort: ParamRule = { type: 'enum', values: { popular: 'POPULAR', az: 'AZ' }, default: 'popular', required: false };
  const q: ParamRule = { type: 'string', minLength: 1, maxLength: 200, required: true };
  const flag: ParamRule = { type: 'flag', default: 0, variable: 'includeSvg', required: false };

  it('describes each rule in words', () => {
    expect(describeRule(perPage)).toBe('a whole number from 1 to 100');
    expect(describeRule({ type: 'integer', minimum: 1, required: false })).toBe('a whole number of at least 1');
    expect(describeRule(sort)).toBe('one of: popular, az');
    expect(describeRule(flag)).toBe('0 or 1');
  });

  it('converts values within the rules', () => {
    expect(convertParam('per_page', perPage, '1')).toBe(1);
    expect(convertParam('per_page', perPage, '100')).toBe(100);
    expect(convertParam('per_page', perPage, '+07')).toBe(7);
    expect(convertParam('sort', sort, 'az')).toBe('AZ');
    expect(convertParam('include_svg', flag, '1')).toBe(true);
    expect(convertParam('q', q, '  arrow left ')).toBe('arrow left');
  });

  // The OpenAPI document lists enum values in lower case and integers as integers: a value it
  // does not allow is refused, not taken leniently (issue 11, item 13).
  it.each([
    ['sort', sort, 'AZ', 'sort must be one of: popular, az (got "AZ")'],
    ['sort', sort, ' az', 'sort must be one of: popular, az (got " az")'],
    ['per_page', perPage, ' 100 ', 'per_page must be a whole number from 1 to 100 (got " 100 ")'],
    ['include_svg', flag, ' 1', 'include_svg must be 0 or 1'],
  ] as const)('%s=%j is refused as the document says', (name, rule, raw, message) => {
    expect(() => convertParam(name, rule, raw)).toThrow(message);
  });

  it.each([
    ['per_page', perPage, '0', 'per_page must be a whole number from 1 to 100 (got "0")'],
    ['per_page', perPage, '1e2', 'per_page must be a whole number'],
    ['per_page', perPage, '0x10', 'per_page must be a whole number'],
    ['sort', sort, 'constructor', 'sort must be one of: popular, az'],
    ['sort', sort, '__proto__', 'sort must be one of'],
    ['include_svg', flag, 'true', 'include_svg must be 0 or 1'],
    ['q', q, '   ', 'q must not be empty'],
    ['q', q, 'x'.repeat(201), 'q must be at most 200 characters long (got 201)'],
  ] as const)('%s=%j breaks its rule', (name, rule, raw, message) => {
    expect(() => convertParam(name, rule, raw)).toThrow(ParamError);
    expect(() => convertParam(name, rule, raw)).toThrow(message);
  });

  it('counts characters, not UTF-16 units, against maxLength', () => {
    expect(convertParam('q', q, '😀'.repeat(200))).toBe('😀'.repeat(200));
  });

  it('takes an empty or blank value as absent, for every kind of parameter (issue 11, item 13)', () => {
    const text: ParamRule = { type: 'string', maxLength: 100, required: false };
    const page: ParamRule = { type: 'integer', minimum: 1, default: 1, required: false };
    const params = { page, per_page: perPage, sort, include_svg: flag, category: text };
    const absent = variablesFor(params, new URLSearchParams(''));
    expect(absent).toEqual({ page: 1, perPage: 24, sort: 'POPULAR', includeSvg: false });
    for (const name of Object.keys(params)) {
      for (const blank of ['', '%20%20']) expect(variablesFor(params, new URLSearchParams(`${name}=${blank}`))).toEqual(absent);
    }
    expect(() => variablesFor({ q }, new URLSearchParams('q='))).toThrow('q must not be empty');
    expect(() => variablesFor({ q }, new URLSearchParams('q=%20'))).toThrow('q must not be empty');
  });

  it('builds variables with defaults, ignores unknown parameters, and refuses repeated ones', () => {
    const params = { per_page: perPage, sort, include_svg: flag };
    expect(variablesFor(params, new URLSearchParams('utm=1'))).toEqual({ perPage: 24, sort: 'POPULAR', includeSvg: false });
    expect(variablesFor(params, new URLSearchParams('per_page=5&sort=az'), { ref: 'x' })).toEqual({ ref: 'x', perPage: 5, sort: 'AZ', includeSvg: false });
    expect(() => variablesFor(params, new URLSearchParams('sort=az&sort=popular'))).toThrow('sort must be given at most once');
    expect(() => variablesFor({ q }, new URLSearchParams(''))).toThrow('q is required');
  });
});

describe('list parameters', () => {
  const ids: ParamRule = { type: 'list', items: 'integer', maxItems: 3, required: false };
  const sets: ParamRule = { type: 'list', items: 'string', maxItems: 2, maxLength: 6, required: false };

  it('splits on commas, trims, and converts each value', () => {
    expect(convertParam('ids', ids, '3, 1,2')).toEqual([3, 1, 2]);
    expect(convertParam('set', sets, 'mdi, lucide')).toEqual(['mdi', 'lucide']);
    expect(variablesFor({ ids }, new URLSearchParams('ids='))).toEqual({});
  });

  it.each([
    [ids, '1,2,3,4', 'ids must list at most 3 values (got 4)'],
    [ids, '1,,2', 'ids must not have an empty value (value 2)'],
    [ids, '1,x', 'ids must list whole numbers (got "x")'],
    [ids, '1,1.5', 'ids must list whole numbers (got "1.5")'],
    [ids, '1,9999999999', 'ids must list whole numbers (got "9999999999")'],
    [sets, 'toolong', 'set must be at most 6 characters long (got 7)'],
    [sets, 'a,\u0001', 'set must not contain control characters'],
  ] as const)('refuses %j %j, naming the parameter', (rule, raw, message) => {
    const name = rule === ids ? 'ids' : 'set';
    expect(() => convertParam(name, rule, raw)).toThrow(ParamError);
    expect(() => convertParam(name, rule, raw)).toThrow(message);
  });

  it('describes itself for messages', () => {
    expect(describeRule(ids)).toBe('a comma-separated list of 1 to 3 whole numbers');
  });
});
