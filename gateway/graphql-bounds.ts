// What a GraphQL request may hold before any of it is parsed (issue 45, item 1). graphql-js
// parses a document by recursion, and the JSON of variables is walked by recursion after it is
// parsed (coercion, cache keys): a query 3,000 selection sets deep, or variables 40,000 arrays
// deep, fit in a body under the cap and overflowed the stack, a 500. Here the nesting of the
// query and of the JSON is counted by one linear scan first, and the parser stops after
// `maxGraphQLTokens` tokens; a request past either bound, or whose `variables` or `extensions`
// are not JSON (Yoga's GET parser threw the JSON parser's own error, another 500), is refused
// with a 400 in the form /graphql speaks (code BAD_REQUEST), and logged at warn. So are the
// requests Yoga answered with an empty body: 415 (no parser for the body's media type) and 406
// (no media type the client accepts).
import type { IncomingMessage } from 'node:http';
import { GraphQLError, parse } from 'graphql';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import { logger } from '../lib/logger.ts';
import type { GatewayResponse, RequestCarrier } from './pipeline/exchange.ts';
import { errorResponse } from './pipeline/responses.ts';
import type { ServerOptions } from './server-options.ts';

export type GraphQLBounds = Pick<ServerOptions, 'maxGraphQLTokens' | 'maxGraphQLNesting'>;

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const OPEN_LIST = 0x5b; // [
const CLOSE_LIST = 0x5d; // ]
const OPEN_ARGS = 0x28; // (
const CLOSE_ARGS = 0x29; // )
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const HASH = 0x23; // #
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Whether JSON text nests objects and arrays deeper than `max` (strings skipped; not a validity check). */
export function jsonNestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i);
        if (inner === BACKSLASH) i++;
        else if (inner === QUOTE) break;
      }
    } else if (char === OPEN || char === OPEN_LIST) {
      if (++depth > max) return true;
    } else if (char === CLOSE || char === CLOSE_LIST) {
      depth--;
    }
  }
  return false;
}

/**
 * Whether a GraphQL document nests selection sets, arguments, lists and objects deeper than
 * `max`, brackets of all kinds counted together (strings, block strings and comments skipped).
 */
export function queryNestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === HASH) {
      while (i < text.length && text.charCodeAt(i) !== NEWLINE && text.charCodeAt(i) !== RETURN) i++;
    } else if (char === QUOTE) {
      if (text.startsWith('"""', i)) {
        const end = blockStringEnd(text, i + 3);
        i = end === -1 ? text.length : end + 2;
      } else {
        for (i++; i < text.length; i++) {
          const inner = text.charCodeAt(i);
          if (inner === BACKSLASH) i++;
          else if (inner === QUOTE || inner === NEWLINE || inner === RETURN) break;
        }
      }
    } else if (char === OPEN || char === OPEN_LIST || char === OPEN_ARGS) {
      if (++depth > max) return true;
    } else if (char === CLOSE || char === CLOSE_LIST || char === CLOSE_ARGS) {
      depth--;
    }
  }
  return false;
}

/** Where the block string starting at `from` ends (its closing `"""`), skipping `\"""`; -1 when it does not. */
function blockStringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text.startsWith('\\"""', i)) i += 3;
    else if (text.startsWith('"""', i)) return i;
  }
  return -1;
}

/** What the bounds need of the gateway that carries them. */
export interface GraphQLBoundsHost {
  /** A refusal in the form /graphql speaks, with the exchange's headers. */
  shape(refusal: GatewayResponse, carrier: RequestCarrier): GatewayResponse;
  /** For the log line: who sent it. */
  describe(carrier: RequestCarrier): { requestId?: string; ip?: string };
}

/** A refusal the request parser returns (Yoga answers a Response it returns as it is). */
class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

type Params = { query?: unknown; variables?: unknown; extensions?: unknown };

/** The JSON parameters of a GET or a form body: each must be JSON, nested within the bound. */
function checkJsonParams(search: URLSearchParams, maxNesting: number): void {
  for (const name of ['variables', 'extensions']) {
    const text = search.get(name);
    if (!text) continue;
    if (jsonNestsDeeper(text, maxNesting)) throw new Refusal(400, `The "${name}" parameter is nested more than ${maxNesting} levels deep`);
    try {
      JSON.parse(text);
    } catch {
      throw new Refusal(400, `The "${name}" parameter is not JSON`);
    }
  }
}

function checkQueries(result: Params | Params[], maxNesting: number): void {
  for (const params of Array.isArray(result) ? result : [result]) {
    if (typeof params?.query === 'string' && queryNestsDeeper(params.query, maxNesting)) {
      throw new Refusal(400, `The query is nested more than ${maxNesting} levels deep`);
    }
  }
}

const mediaTypeOf = (request: Request) => (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

export function useGraphQLBounds({ maxGraphQLTokens, maxGraphQLNesting }: GraphQLBounds, host: GraphQLBoundsHost): YogaPlugin {
  const carrierOf = (request: Request, serverContext: unknown): RequestCarrier => ({ req: (serverContext as { req?: IncomingMessage } | undefined)?.req, request });

  const answer = (refusal: Refusal, carrier: RequestCarrier, fetchAPI: { Response: typeof Response }) => {
    logger.warn({ msg: 'GraphQL request refused', status: refusal.status, reason: refusal.message, ...host.describe(carrier) });
    const { status, headers, body } = host.shape(errorResponse(refusal.status, refusal.message, refusal.headers), carrier);
    return new fetchAPI.Response(String(body), { status, headers });
  };

  /** Before a parser's JSON.parse: the nesting and validity of what it will parse. */
  async function checkBeforeParsing(request: Request, url: URL): Promise<void> {
    if (request.method === 'GET') return checkJsonParams(url.searchParams, maxGraphQLNesting);
    const type = mediaTypeOf(request);
    if (type === 'application/x-www-form-urlencoded') return checkJsonParams(new URLSearchParams(await request.clone().text()), maxGraphQLNesting);
    // A batch is one level more (an array of requests), and each request's object one more.
    if (type === 'application/json' || type === 'application/graphql+json') {
      if (jsonNestsDeeper(await request.clone().text(), maxGraphQLNesting + 2)) throw new Refusal(400, `The request's JSON is nested more than ${maxGraphQLNesting} levels deep`);
    }
    // GraphQL multipart requests (file uploads) carry the request's JSON in these two fields.
    if (type === 'multipart/form-data') {
      const form = await request
        .clone()
        .formData()
        .catch(() => {
          throw new Refusal(400, 'The GraphQL request could not be read');
        });
      for (const name of ['operations', 'map']) {
        const text = form.get(name);
        if (typeof text === 'string' && jsonNestsDeeper(text, maxGraphQLNesting + 2)) throw new Refusal(400, `The "${name}" field is nested more than ${maxGraphQLNesting} levels deep`);
      }
    }
  }

  return {
    onRequestParse({ request, url, requestParser, setRequestParser, serverContext, endResponse, fetchAPI }) {
      const carrier = carrierOf(request, serverContext);
      if (!requestParser) {
        endResponse(answer(new Refusal(415, 'The request body’s Content-Type is not one /graphql takes: application/json, application/graphql+json, application/x-www-form-urlencoded or multipart/form-data'), carrier, fetchAPI));
        return;
      }
      setRequestParser(async (parsed) => {
        try {
          await checkBeforeParsing(parsed, url as URL);
          let result: Params | Params[];
          try {
            result = (await requestParser(parsed)) as Params | Params[];
          } catch (error) {
            if (error instanceof GraphQLError) throw error;
            throw new Refusal(400, 'The GraphQL request could not be read');
          }
          checkQueries(result, maxGraphQLNesting);
          return result as never;
        } catch (error) {
          if (error instanceof Refusal) return answer(error, carrier, fetchAPI) as never;
          throw error;
        }
      });
    },
    onParse({ setParseFn }) {
      setParseFn((source, options) => parse(source, { ...options, maxTokens: maxGraphQLTokens }));
    },
    onResponse({ request, response, serverContext, setResponse, fetchAPI }) {
      // Yoga's own 406 has no body; its Accept header lists what it could answer in.
      if (response.status !== 406 || response.headers.has('content-type')) return;
      const offered = response.headers.get('accept');
      const refusal = new Refusal(
        406,
        'The Accept header names no media type /graphql answers in: application/graphql-response+json or application/json',
        offered ? { accept: offered } : {},
      );
      setResponse(answer(refusal, carrierOf(request, serverContext), fetchAPI));
    },
  };
}
