// docs/api.md against the API it documents, on a gateway serving a copy of the demo catalogue
// over a real socket: every endpoint section (a heading such as ### `GET /icons`) and every
// parameter in its table appears in /openapi.json, and every path and parameter of the document
// appears in docs/api.md; and every example request of the page answers 200.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { proseLines } from '../../scripts/check-docs.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const API_DOC = join(PROJECT_ROOT, 'docs', 'api.md');
const markdown = readFileSync(API_DOC, 'utf8');

/** `GET /icons` -> its parameters, as the page's endpoint sections list them (path parameters included). */
function documentedEndpoints(text: string): Map<string, Set<string>> {
  const endpoints = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  let inParameterTable = false;
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      const endpoint = /^`(GET|HEAD|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`$/.exec(heading[1]!.trim());
      current = endpoint ? new Set() : undefined;
      if (endpoint) endpoints.set(`${endpoint[1]} ${endpoint[2]}`, current!);
      inParameterTable = false;
      continue;
    }
    if (!current) continue;
    if (!line.startsWith('|')) {
      inParameterTable = false;
      continue;
    }
    const first = line.split('|')[1]!.trim();
    if (first === 'parameter') inParameterTable = true;
    else if (inParameterTable && /^`[^`]+`$/.test(first)) current.add(first.slice(1, -1));
  }
  return endpoints;
}

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as JSON
type Json = any;

/** `GET /icons` -> its parameters, as the OpenAPI document lists them. */
function servedEndpoints(document: Json): Map<string, Set<string>> {
  const endpoints = new Map<string, Set<string>>();
  const resolve = (item: Json) => (item.$ref ? item.$ref.split('/').slice(1).reduce((node: Json, part: string) => node[part], document) : item);
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of ['get', 'head', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve);
      endpoints.set(`${method.toUpperCase()} ${path}`, new Set(parameters.map((parameter: Json) => parameter.name)));
    }
  }
  return endpoints;
}

/** The example requests of the page that take the demo key: `curl -H "X-API-Key: $KEY" '<url>'`. */
function exampleRequests(text: string): string[] {
  const urls: string[] = [];
  let inShell = false;
  for (const line of text.split('\n')) {
    if (/^```/.test(line)) {
      inShell = !inShell && /^```sh\b/.test(line);
      continue;
    }
    if (!inShell || !line.includes('X-API-Key: $KEY')) continue;
    const url = /'?(http:\/\/localhost:4000\/[^'\s]*)'?/.exec(line)?.[1];
    if (url) urls.push(url);
  }
  return urls;
}

let database: TestDatabase;
let gateway: RunningGateway;
let document: Json;
let key: string;

beforeAll(async () => {
  database = await createCatalogueCopy('pglite');
  key = (await createApiKey(database.db.prisma, { accountName: 'docs-reader', hourlyLimit: 100_000 })).key;
  gateway = await startGatewayInProcess(database.db, { env: { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' } });
  document = await (await fetch(`${gateway.url}/openapi.json`)).json();
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

describe('docs/api.md against /openapi.json', () => {
  it('reads endpoint sections and their parameter tables', () => {
    const sample = '### `GET /a/{id}`\n\n| parameter | rule |\n| --- | --- |\n| `id` | path |\n| `page` | 1+ |\n\n| header | x |\n| `ETag` | y |\n\n## Errors\n\n| parameter |\n| `nope` |\n';
    expect(documentedEndpoints(sample)).toEqual(new Map([['GET /a/{id}', new Set(['id', 'page'])]]));
  });

  it('documents every path of the document, and only those', () => {
    const documented = [...documentedEndpoints(markdown).keys()].sort();
    const served = [...servedEndpoints(document).keys()].sort();
    expect(served.length).toBeGreaterThanOrEqual(10);
    expect(documented).toEqual(served);
  });

  it('documents every parameter of every path, and only those', () => {
    const documented = documentedEndpoints(markdown);
    for (const [endpoint, parameters] of servedEndpoints(document)) {
      expect([...(documented.get(endpoint) ?? [])].sort(), endpoint).toEqual([...parameters].sort());
    }
  });

  it("answers the page's example requests", async () => {
    const urls = exampleRequests(markdown);
    expect(urls.length).toBeGreaterThanOrEqual(8);
    for (const url of urls) {
      const response = await fetch(url.replace('http://localhost:4000', gateway.url), { headers: { 'X-API-Key': key } });
      expect(response.status, url).toBe(200);
      await response.arrayBuffer();
    }
  });
});
