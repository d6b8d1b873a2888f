// Cross-origin reads: a page on another origin (the explorer on a CDN, a customer's app) calls
// the API with its key in a header, so the browser first sends a preflight OPTIONS and then only
// lets the page read a response that carries Access-Control-Allow-Origin. Keys travel in headers
// and no cookie is ever used, so `*` is safe as the default: a page gains nothing it could not
// get by sending the key itself, and credentials mode is never allowed. Preflights are answered
// in the start phase: before routing (no 405), auth (no key needed) and the limits (not counted).
// The other headers go on every response, errors and documents included (the pipeline adds the
// exchange's headers to whatever it answers, the front to what GraphQL answers).
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import type { AddedHeader, ApiDescription, GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { corsOptions, type CorsOptions } from './options.ts';

const ALLOW_METHODS = 'GET, HEAD, POST, OPTIONS';

/** Names once each, whatever their case, in the order first given. */
function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const name of names) if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  return [...seen.values()];
}

/** Every header name the API's description says a response may carry. */
function describedHeaderNames(api: ApiDescription): string[] {
  return [...(api.headers ?? []), ...(api.responses ?? []).flatMap((response) => response.headers ?? [])].map((header) => header.name);
}

/** The header names API keys travel in (the apiKey security schemes). */
function keyHeaderNames(api: ApiDescription): string[] {
  return Object.values(api.securitySchemes ?? {}).flatMap((scheme) => (scheme.type === 'apiKey' && scheme.in === 'header' ? [String(scheme.name)] : []));
}

function describeCors({ origins }: CorsOptions, anyOrigin: boolean): ApiDescription {
  const headers: AddedHeader[] = [
    {
      name: 'Access-Control-Allow-Origin',
      description: anyOrigin ? 'Any page may read the response (`*`): keys travel in headers, no cookies are used.' : 'The request’s Origin, when it is one of the allowed origins.',
      schema: { type: 'string' },
      always: anyOrigin,
    },
    {
      name: 'Access-Control-Expose-Headers',
      description: 'The response headers a page on another origin may read: the limit headers, ETag, X-Request-Id, Retry-After, X-Cache.',
      schema: { type: 'string' },
      always: anyOrigin,
    },
  ];
  if (!anyOrigin) headers.push({ name: 'Vary', description: 'Origin: the CORS headers depend on it.', schema: { type: 'string' }, always: true });
  return {
    headers,
    overview: [
      `**Cross-origin requests (CORS).** Pages on ${anyOrigin ? 'any origin' : `these origins: ${origins.join(', ')}`} may call the API from a browser, sending the key in its header (no cookies). Preflight requests (\`OPTIONS\` with \`Origin\` and \`Access-Control-Request-Method\`) are answered 204 without a key and are not counted against any limit.`,
    ],
  };
}

export const useCors: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(corsOptions, rawOptions, where);
  const anyOrigin = options.origins[0] === '*';
  const allowed = new Set<string>(options.origins);
  let allowHeaders = uniqueNames(options.allowHeaders).join(', ');
  let exposeHeaders = uniqueNames(options.exposeHeaders).join(', ');
  const maxAge = String(options.maxAgeSeconds);

  /** The origin to allow for this request: `*`, the request's own (when listed), or none. */
  function allowedOrigin(exchange: Exchange): string | undefined {
    if (anyOrigin) return '*';
    const origin = exchange.header('origin');
    return origin !== undefined && allowed.has(origin) ? origin : undefined;
  }

  function preflight(exchange: Exchange, origin: string | undefined): GatewayResponse {
    exchange.destination = { kind: 'document', route: 'preflight' };
    if (!origin) return errorResponse(403, `Origin ${exchange.header('origin')} may not call this API from a browser`);
    return {
      status: 204,
      headers: {
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': allowHeaders,
        'access-control-max-age': maxAge,
      },
      body: '',
    };
  }

  /**
   * GraphQL Yoga answers CORS itself (it echoes any Origin and allows credentials): on what it
   * answers, its CORS headers give way to this plugin's, so that /graphql follows the same rule.
   */
  const overrideYogaCors: YogaPlugin = {
    onResponse({ request, response, serverContext }) {
      const exchange = services.exchangeOf({ request, req: (serverContext as { req?: Exchange['carrier']['req'] } | undefined)?.req });
      if (!exchange) return;
      for (const name of [...response.headers.keys()]) if (name.startsWith('access-control-')) response.headers.delete(name);
      if (!anyOrigin) response.headers.set('vary', 'Origin');
      else if (/^origin$/i.test(response.headers.get('vary') ?? '')) response.headers.delete('vary');
      for (const [name, value] of Object.entries(exchange.responseHeaders)) if (name.startsWith('access-control-')) response.headers.set(name, value);
    },
  };

  return {
    name: 'cors',
    yoga: [overrideYogaCors],
    stages: {
      start(exchange) {
        const origin = allowedOrigin(exchange);
        const headers = exchange.responseHeaders;
        if (!anyOrigin) headers.vary = 'Origin';
        if (origin) {
          headers['access-control-allow-origin'] = origin;
          headers['access-control-expose-headers'] = exposeHeaders;
        }
        const isPreflight = exchange.method === 'OPTIONS' && exchange.header('origin') !== undefined && exchange.header('access-control-request-method') !== undefined;
        return isPreflight ? preflight(exchange, origin) : undefined;
      },
    },
    describes: describeCors(options, anyOrigin),
    bind(_envelope, api) {
      // Whatever the limit headers and the key's header are named in this config.
      allowHeaders = uniqueNames([...keyHeaderNames(api), ...options.allowHeaders]).join(', ');
      exposeHeaders = uniqueNames([...options.exposeHeaders, ...describedHeaderNames(api)].filter((name) => !/^access-control-|^vary$/i.test(name))).join(', ');
    },
  };
};
