// The catalogue in a browser, served by the gateway itself so that every serve mode has it: the
// explorer at `/` (a person pastes a key and browses; the page only calls the public REST API),
// the icon pages the `url` field points at (the explorer opened on that icon), the API reference
// at /docs (Swagger UI of the OpenAPI document) and GraphiQL on GET /graphql for browsers. All of
// it is public and answered in the route phase: before auth (no key: the pages ask for one) and
// before the limits (static files cost no query). Every file comes from this repository or an
// npm package, never a CDN, so the pages work offline and behind a strict firewall.
import { GRAPHQL_PATH, type Exchange, type GatewayResponse } from '../../pipeline/exchange.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse, methodNotAllowed, READ_METHODS } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { assetResponse, AssetShelf } from './assets.ts';
import { webPagesOptions } from './options.ts';
import { EXPLORER_PAGE, GRAPHIQL_PAGE, pageSources } from './pages.ts';

/** Scripts and styles from this origin only; images from anywhere (svg_url may name a CDN). */
const EXPLORER_POLICY =
  "default-src 'self'; img-src * data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Swagger UI sets style attributes. */
const DOCS_POLICY =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
/** GraphiQL's page is one inline script that starts its editors' workers from blobs. */
const GRAPHIQL_POLICY =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** `/{locale}/icons/{slug}` as a regular expression for paths. */
function pagePattern(template: string): RegExp {
  const parts = template.split(/(\{locale\}|\{slug\})/).map((part) => {
    if (part === '{locale}') return '[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*';
    if (part === '{slug}') return '[A-Za-z0-9][A-Za-z0-9._-]{0,199}';
    return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('')}$`);
}

/** What Yoga looks at to offer GraphiQL: a browser navigating (GET, HTML accepted), no query. */
function wantsGraphiQL(exchange: Exchange): boolean {
  return exchange.method === 'GET' && (exchange.header('accept') ?? '').includes('text/html') && !exchange.query.has('query');
}

export const useWebPages: PluginFactory = (rawOptions, _services, where): GatewayPlugin => {
  const options = parsePluginOptions(webPagesOptions, rawOptions, where);
  const { sources, types } = pageSources({ ...options, graphqlPath: GRAPHQL_PATH });
  const shelf = new AssetShelf(sources, types);
  const iconPage = pagePattern(options.iconPagePath);
  const folders = ['/explorer/', ...(options.docsPath === false ? [] : [`${options.docsPath}/`])];

  /** The asset a path names and its label for metrics and logs; undefined: not one of the pages' paths. */
  function find(exchange: Exchange): { asset: string; route: string; policy?: string } | undefined {
    const { path } = exchange;
    if (path === GRAPHQL_PATH) return options.graphiql && wantsGraphiQL(exchange) ? { asset: GRAPHIQL_PAGE, route: 'graphiql', policy: GRAPHIQL_POLICY } : undefined;
    if (path === options.explorerPath) return { asset: EXPLORER_PAGE, route: 'explorer', policy: EXPLORER_POLICY };
    if (iconPage.test(path)) return { asset: EXPLORER_PAGE, route: 'icon page', policy: EXPLORER_POLICY };
    if (path === options.docsPath) return { asset: path, route: 'docs', policy: DOCS_POLICY };
    const folder = folders.find((prefix) => path.startsWith(prefix));
    return folder === undefined ? undefined : { asset: path, route: `${folder}*` };
  }

  async function serve(exchange: Exchange, asset: string, policy: string | undefined): Promise<GatewayResponse> {
    return assetResponse(exchange, await shelf.get(asset), policy ? { 'content-security-policy': policy } : {});
  }

  return {
    name: 'web-pages',
    stages: {
      route(exchange) {
        const found = find(exchange);
        if (!found) return undefined;
        exchange.destination = { kind: 'document', route: found.route };
        const refused = methodNotAllowed(exchange, READ_METHODS);
        if (refused) return refused;
        if (!shelf.has(found.asset)) return errorResponse(404, `No file at ${exchange.path}`);
        return serve(exchange, found.asset, found.policy);
      },
    },
    // (The REST API's description speaks of REST only: GraphiQL is not named in it.)
    describes: {
      overview: [
        `**In a browser.** The explorer (\`${options.explorerPath}\`) searches and shows the catalogue with a key you paste; each icon's \`url\` opens it there. ${
          options.docsPath === false ? '' : `This reference is also served as a page at \`${options.docsPath}\`. `
        }These pages need no key to load.`,
      ],
    },
  };
};
