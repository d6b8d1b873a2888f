// What the pages are made of: the explorer's own files (site/), Swagger UI from its npm package,
// and GraphiQL from @graphql-yoga/render-graphiql (its whole bundle inlined in one page, read
// only when a browser first asks for it: it is 9 MB of JavaScript).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../../../lib/project-root.ts';
import type { AssetSource } from './assets.ts';

const SITE = join(PROJECT_ROOT, 'gateway', 'plugins', 'web-pages', 'site');
const fromProject = createRequire(join(PROJECT_ROOT, 'package.json'));

/** A file of an installed package (resolved from the project, as npm installed it). */
function packageFile(pkg: string, file: string): AssetSource {
  return () => readFile(join(dirname(fromProject.resolve(`${pkg}/package.json`)), file));
}

function siteFile(file: string): AssetSource {
  return () => readFile(join(SITE, file));
}

/**
 * The explorer's page, with the addresses of its script and styles versioned. `{{/path}}` in
 * site/index.html is replaced by that file's versioned address.
 */
function explorerPage(): AssetSource {
  return async (shelf) => {
    const template = await readFile(join(SITE, 'index.html'), 'utf8');
    const paths = [...new Set([...template.matchAll(/\{\{(\/[^}]+)\}\}/g)].map((match) => match[1]!))];
    const urls = new Map(await Promise.all(paths.map(async (path) => [path, await shelf.url(path)] as const)));
    return template.replace(/\{\{(\/[^}]+)\}\}/g, (_all, path: string) => urls.get(path)!);
  };
}

function docsPage(docsPath: string, openapiPath: string): AssetSource {
  return async (shelf) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Icon Catalogue API reference</title>
<link rel="stylesheet" href="${await shelf.url(`${docsPath}/swagger-ui.css`)}">
<link rel="icon" href="${await shelf.url('/explorer/favicon.svg')}" type="image/svg+xml">
</head>
<body>
<div id="swagger-ui" data-openapi="${openapiPath}"></div>
<script src="${await shelf.url(`${docsPath}/swagger-ui-bundle.js`)}"></script>
<script src="${await shelf.url(`${docsPath}/docs.js`)}"></script>
</body>
</html>
`;
}

/** Swagger UI's settings (a file, so that the page's policy needs no inline script). */
const DOCS_SCRIPT = `// The API reference: Swagger UI of the gateway's own OpenAPI document. "Authorize" takes a key.
window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.openapi,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  presets: [SwaggerUIBundle.presets.apis],
});
`;

const GRAPHIQL_QUERY = `# Paste your key into X-API-Key in the Headers tab below, then run (Ctrl-Enter).
query Search {
  search(q: "arrow left", perPage: 5) {
    data { id name slug premium svgUrl url }
    meta { total }
  }
}
`;

function graphiqlPage(graphqlPath: string): AssetSource {
  return async () => {
    const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
    return renderGraphiQL({
      title: 'Icon Catalogue GraphiQL',
      endpoint: graphqlPath,
      headers: JSON.stringify({ 'X-API-Key': '' }, null, 2),
      // Headers hold the key: never written to the browser's storage.
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
      defaultQuery: GRAPHIQL_QUERY,
    });
  };
}

export const EXPLORER_FILES = ['/explorer/explorer.js', '/explorer/explorer.css', '/explorer/favicon.svg'];
export const GRAPHIQL_PAGE = '/graphql (GraphiQL)';
export const EXPLORER_PAGE = '/ (explorer)';

export function pageSources(options: { docsPath: string | false; openapiPath: string; graphiql: boolean; graphqlPath: string }): {
  sources: Map<string, AssetSource>;
  types: Map<string, string>;
} {
  const sources = new Map<string, AssetSource>([[EXPLORER_PAGE, explorerPage()]]);
  const types = new Map<string, string>([[EXPLORER_PAGE, 'text/html; charset=utf-8']]);
  for (const path of EXPLORER_FILES) sources.set(path, siteFile(path.slice('/explorer/'.length)));
  if (options.docsPath !== false) {
    sources.set(options.docsPath, docsPage(options.docsPath, options.openapiPath));
    types.set(options.docsPath, 'text/html; charset=utf-8');
    sources.set(`${options.docsPath}/swagger-ui.css`, packageFile('swagger-ui-dist', 'swagger-ui.css'));
    sources.set(`${options.docsPath}/swagger-ui-bundle.js`, packageFile('swagger-ui-dist', 'swagger-ui-bundle.js'));
    sources.set(`${options.docsPath}/docs.js`, async () => DOCS_SCRIPT);
  }
  if (options.graphiql) {
    sources.set(GRAPHIQL_PAGE, graphiqlPage(options.graphqlPath));
    types.set(GRAPHIQL_PAGE, 'text/html; charset=utf-8');
  }
  return { sources, types };
}
