// Two gateways with different configs in one process, side by side: each is built from its own
// .meshrc.yaml and keeps its own pipeline, limits, counters, routes, header names and metrics.
// (Nothing in a gateway is process-global.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

let database: TestDatabase;
let standard: RunningGateway;
let custom: RunningGateway;
let key: string;
const env = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' }; // memory stores: counts per gateway

/** The project's config with another limit, key header, metrics path and one more route. */
function customConfig(config: string): string {
  const edited = config
    .replace('hourlyLimit: 1000', 'hourlyLimit: 7')
    .replace('anonymousHourlyLimit: 1000', 'anonymousHourlyLimit: 5')
    .replace('header: X-API-Key', 'header: X-Icon-Key')
    .replace('metricsPath: /metrics', 'metricsPath: /internal/metrics')
    .replace('              - path: /categories\n', '              - path: /newest\n                operation: ListIcons\n                envelope: page\n                params:\n                  sort: { type: enum, values: { newest: NEWEST }, default: newest }\n              - path: /categories\n');
  expect(edited).not.toBe(config);
  return edited;
}

beforeAll(async () => {
  database = await createCatalogueCopy('pglite');
  key = (await createApiKey(database.db.prisma, { accountName: 'two-gateways' })).key;
  standard = await startGatewayInProcess(database.db, { env });
  custom = await withConfig(customConfig, (dir) => startGatewayInProcess(database.db, { dir, env }));
});
afterAll(async () => {
  await custom?.close();
  await standard?.close();
  await database?.drop();
});

const get = (gateway: RunningGateway, path: string, headers: Record<string, string> = {}) => fetch(`${gateway.url}${path}`, { headers });

describe('two gateways in one process', () => {
  it('each takes the key in its own header and counts it against its own limit', async () => {
    for (let i = 1; i <= 3; i++) {
      const response = await get(custom, '/categories', { 'x-icon-key': key });
      expect(response.status).toBe(200);
      expect([response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual(['7', String(7 - i)]);
    }
    expect((await get(custom, '/categories', { 'x-api-key': key })).status).toBe(401);
    const other = await get(standard, '/categories', { 'x-api-key': key });
    expect(other.status).toBe(200);
    expect([other.headers.get('x-ratelimit-limit'), other.headers.get('x-ratelimit-remaining')]).toEqual(['1000', '999']);
    expect((await get(standard, '/categories', { 'x-icon-key': key })).status).toBe(401);
  });

  it('each serves its own routes and describes them, with its own header names, in its OpenAPI document', async () => {
    const newest = await get(custom, '/newest?per_page=2', { 'x-icon-key': key });
    expect(newest.status).toBe(200);
    expect(((await newest.json()) as { meta: { per_page: number } }).meta.per_page).toBe(24); // the route declares no per_page
    expect((await get(standard, '/newest', { 'x-api-key': key })).status).toBe(404);
    type Document = { paths: Record<string, unknown>; components: { securitySchemes: Record<string, { name?: string }> } };
    const documents = await Promise.all([standard, custom].map(async (gateway) => (await (await get(gateway, '/openapi.json')).json()) as Document));
    expect(documents.map((document) => document.components.securitySchemes.ApiKeyHeader?.name)).toEqual(['X-API-Key', 'X-Icon-Key']);
    expect(documents.map((document) => Object.keys(document.paths).includes('/newest'))).toEqual([false, true]);
  });

  it('each keeps its own metrics, at its own path', async () => {
    await get(custom, '/icons', { 'x-icon-key': key });
    const customMetrics = await (await get(custom, '/internal/metrics')).text();
    expect(customMetrics).toMatch(/icon_gateway_requests_total\{route="\/icons",method="GET",status="200"\} 1\n/);
    expect((await get(custom, '/metrics', { 'x-icon-key': key })).status).toBe(404);
    const standardMetrics = await (await get(standard, '/metrics')).text();
    expect(standardMetrics).not.toMatch(/route="\/icons",method="GET",status="200"/);
    expect(standardMetrics).toMatch(/route="\/categories",method="GET",status="200"\} 1\n/);
  });
});
