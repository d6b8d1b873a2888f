// The REST routes checked against the catalogue schema at start: each parameter takes the bounds
// of the argument it fills (@constraint), a route may narrow them but never widen them, and a
// route whose responses are shared between accounts may not select what depends on the account.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, validateConfig } from '../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createCatalogueSchema } from '../../resolvers/schema.ts';
import { loadOperations } from '../../gateway/plugins/rest-routes/operations.ts';
import { restRoutesOptions } from '../../gateway/plugins/rest-routes/options.ts';
import { RouteTable } from '../../gateway/plugins/rest-routes/route-table.ts';

const schema = createCatalogueSchema();
const operations = loadOperations(join(PROJECT_ROOT, 'gateway', 'operations'));

function bound(route: Record<string, unknown>): RouteTable {
  const options = validateConfig(restRoutesOptions, { routes: [{ path: '/x', envelope: 'page', ...route }] }, '.meshrc.yaml');
  const table = new RouteTable(options, operations);
  table.bind(schema);
  return table;
}

describe('parameter bounds from the schema', () => {
  it('takes the bounds a route leaves out from the argument the parameter fills', () => {
    const [route] = bound({
      operation: 'SearchIcons',
      params: { per_page: { type: 'integer', variable: 'perPage' }, page: { type: 'integer' }, q: { type: 'string', required: true } },
    }).routes;
    expect(route!.params.per_page).toMatchObject({ minimum: 1, maximum: 100 });
    // page's @constraint says min 1 only; GraphQL's Int (32-bit) is its real maximum (issue 11, item 13).
    expect(route!.params.page).toMatchObject({ minimum: 1, maximum: 2_147_483_647 });
    expect(route!.params.q).toMatchObject({ minLength: 1, maxLength: 200 });
  });

  it('lets a route narrow a bound, and refuses one that widens it, naming the route and parameter', () => {
    const [route] = bound({ operation: 'ListIcons', params: { per_page: { type: 'integer', variable: 'perPage', maximum: 10 } } }).routes;
    expect(route!.params.per_page).toMatchObject({ minimum: 1, maximum: 10 });
    expect(() => bound({ operation: 'ListIcons', params: { per_page: { type: 'integer', variable: 'perPage', maximum: 150 } } })).toThrow(
      new ConfigError("route /x: params.per_page.maximum 150 is above the schema's bound for perPage (100)"),
    );
    expect(() => bound({ operation: 'SearchIcons', params: { q: { type: 'string', required: true, minLength: 0 } } })).toThrow(/params\.q\.minLength 0 is below the schema's bound for q \(1\)/);
  });
});

describe('responses shared between accounts', () => {
  it('refuses a shared cache on an operation whose answer depends on the account, naming the route and the fields', () => {
    expect(() => bound({ operation: 'GetIcon', path: '/x/{ref}', cache: { seconds: 30, scope: 'shared' } })).toThrow(
      /route \/x\/\{ref\}: cache scope "shared" .* operation GetIcon selects Query\.icon, Icon\.svg, which depend on the caller's account/,
    );
  });

  it('allows it for lists, whose markup is free icons only (svg(includeOwnedPremium: false)), and for per-account caches', () => {
    expect(() => bound({ operation: 'ListIcons', cache: { seconds: 30, scope: 'shared' } })).not.toThrow();
    expect(() => bound({ operation: 'GetIcon', path: '/x/{ref}', cache: { seconds: 30, scope: 'account' } })).not.toThrow();
    expect(() => bound({ operation: 'GetIcon', path: '/x/{ref}', cache: { seconds: 0, scope: 'shared' } })).not.toThrow();
  });
});
