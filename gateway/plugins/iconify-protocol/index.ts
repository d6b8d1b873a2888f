// Iconify's protocol, so that Iconify's components (iconify-icon, @iconify/react, the SVG
// framework) and the pickers built on its API load icons from this catalogue: under `path`
// (default /iconify), icon data as IconifyJSON (/{prefix}.json?icons=), SVG files
// (/{prefix}/{name}.svg), stylesheets (/{prefix}.css?icons=), and the lists (/collections,
// /collection, /search, /last-modified, /version), in Iconify's formats and with its parameters.
// A component sends no key, so no request here needs one: without one it is counted as
// anonymous, per client address, as the icon files are; with one (in a header, never the URL) it
// is the key's. Who gets which icon is the resolvers' rule (operation IconifyIcons): a premium
// icon reaches its owners' keys only and is `not_found` for everyone else. This plugin runs the
// named operations through the served schema's envelope, as the REST routes and icon-files do,
// and never reads the database itself. Free icons' data and the lists' answers to anonymous
// callers (the same for all of them) are kept for cacheSeconds.
import { isAbsolute, resolve } from 'node:path';
import type { DocumentNode, ExecutionResult, GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import { ConfigError } from '../../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../../lib/project-root.ts';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import { operationEnvelope, type OperationEnvelope } from '../../pipeline/operation-envelope.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse, jsonResponse, methodNotAllowed, READ_METHODS } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { keptCompiledQueries, useCompiledOperations } from '../rest-routes/compiled-operations.ts';
import { sharedOperations } from '../rest-routes/operations.ts';
import { choosePrefixes, collectionJson, iconifyJson, iconsCss, iconSvg, setInfo, type AliasData, type CollectionData, type IconData, type IconsData, type SetData } from './formats.ts';
import { iconifyProtocolOptions } from './options.ts';
import { cssOptions, flag, jsonpCallback, ProtocolError, single, svgCustomizations } from './params.ts';

/** Iconify's names: lower-case letters and digits in words joined by hyphens (its API's rule for prefixes and names in paths). */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A name of an icon asked for by `icons=`: Iconify's rule, with `_` that some sets use; longer ones match nothing. */
const ICON_NAME = /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/;
const MAX_NAME_LENGTH = 100;

/** Iconify's search pages: at least 32, at most 999, 64 unless asked. */
const SEARCH_LIMIT = { min: 32, max: 999, default: 64 };

/** Iconify's callback for icon data asked as a script (`/{prefix}.js`) without `callback=`. */
const SCRIPT_CALLBACK = 'SimpleSVG._loaderCallback';

type Endpoint =
  | { kind: 'icons'; prefix: string; script?: boolean }
  | { kind: 'css'; prefix: string }
  | { kind: 'svg'; prefix: string; name: string }
  | { kind: 'collections' | 'collection' | 'search' | 'last-modified' | 'version' | 'unknown' };

/** A free icon's or free alias's data, the same for every caller; `missing`: not given to anonymous callers. */
type KeptName = { kind: 'icon'; icon: IconData } | { kind: 'alias'; aliases: AliasData[]; icon: IconData } | { kind: 'missing' };

interface KeptSet {
  lastModified: number;
  palette: boolean;
}

export const useIconifyProtocol: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(iconifyProtocolOptions, rawOptions, where);
  const operations = sharedOperations(isAbsolute(options.operations) ? options.operations : resolve(PROJECT_ROOT, options.operations), services.keep);
  const documents = {
    icons: operations.document(options.operationNames.icons),
    sets: operations.document(options.operationNames.sets),
    collection: operations.document(options.operationNames.collection),
    search: operations.document(options.operationNames.search),
  } satisfies Record<keyof typeof options.operationNames, DocumentNode>;
  const ENDPOINT = Symbol('iconify-protocol: the endpoint a request names');
  const base = options.path;
  const keeping = options.cacheSeconds > 0;
  let enveloped: OperationEnvelope | undefined;

  /** Free icons' and aliases' data by `prefix\nname`, and sets' by `prefix`, bounded by their markup's bytes. */
  const names = new LRUCache<string, KeptName>({
    maxSize: Math.max(1, options.dataCacheMaxBytes),
    sizeCalculation: (kept, key) => key.length + 96 + (kept.kind === 'missing' ? 0 : kept.icon.body.length + kept.icon.name.length),
    ttl: Math.max(1, options.cacheSeconds) * 1000,
  });
  const sets = new LRUCache<string, KeptSet>({ max: 10_000, ttl: Math.max(1, options.cacheSeconds) * 1000 });
  /** The lists' finished answers by path and query. */
  const lists = new LRUCache<string, Buffer>({
    maxSize: Math.max(1, options.listCacheMaxBytes),
    sizeCalculation: (bytes, key) => bytes.length + key.length + 64,
    ttl: Math.max(1, options.cacheSeconds) * 1000,
  });
  /**
   * Free icons' finished SVG files by prefix, name and customizations, the same for every caller,
   * as icon-files keeps its files: a file asked again is not built again (nor its data looked up).
   */
  const svgFiles = new LRUCache<string, string>({
    maxSize: Math.max(1, options.svgCacheMaxBytes),
    sizeCalculation: (svg, key) => svg.length + key.length + 64,
    ttl: Math.max(1, options.cacheSeconds) * 1000,
  });
  const keepingSvg = keeping && options.svgCacheMaxBytes > 0;
  /** Every set, as the last IconifySets gave them, for cacheSeconds. */
  let setList: { at: number; sets: SetData[] } | undefined;

  async function run<T>(exchange: Exchange, operation: keyof typeof documents, variableValues: Record<string, unknown>): Promise<T | GatewayResponse> {
    if (!enveloped) throw new Error('iconify-protocol is not bound to a schema yet');
    const { schema, contextValue, execute } = await enveloped(exchange.carrier);
    const result = (await execute({ schema, document: documents[operation], variableValues, contextValue, operationName: options.operationNames[operation] })) as ExecutionResult;
    if (result.errors?.length) return services.errors.fromGraphQL(result.errors as GraphQLError[], exchange);
    return Object.values(result.data ?? {})[0] as T;
  }

  const isResponse = (value: unknown): value is GatewayResponse => typeof value === 'object' && value !== null && 'status' in value && 'headers' in value;
  const anonymous = (exchange: Exchange) => !exchange.caller?.viewer;

  /**
   * What is kept of the icons `asked` of a set (for this caller), and the names that are not: a
   * request of 1 to 20 icons drawn by popularity mostly meets a few it has not seen, and asking
   * the operation for those only keeps its cost to them.
   */
  function keptIcons(prefix: string, asked: readonly string[], anonymousCaller: boolean): { data: IconsData; missing: string[] } | undefined {
    const set = sets.get(prefix);
    if (!set) return undefined;
    const icons = new Map<string, IconData>();
    const aliases = new Map<string, AliasData>();
    const notFound: string[] = [];
    const missing: string[] = [];
    for (const name of asked) {
      const kept = names.get(`${prefix}\n${name}`);
      if (!kept || (kept.kind === 'missing' && !anonymousCaller)) missing.push(name);
      else if (kept.kind === 'missing') notFound.push(name);
      else {
        icons.set(kept.icon.name, kept.icon);
        if (kept.kind === 'alias') for (const alias of kept.aliases) aliases.set(alias.name, alias);
      }
    }
    return { data: { prefix, ...set, icons: [...icons.values()], aliases: [...aliases.values()], notFound }, missing };
  }

  /** A kept part and the operation's answer for the rest, as one answer in the order asked. */
  function merged(asked: readonly string[], kept: IconsData, fetched: IconsData): IconsData {
    const icons = new Map(kept.icons.map((icon) => [icon.name, icon]));
    for (const icon of fetched.icons) icons.set(icon.name, icon);
    const aliases = new Map(kept.aliases.map((alias) => [alias.name, alias]));
    for (const alias of fetched.aliases) aliases.set(alias.name, alias);
    const notFound = new Set([...kept.notFound, ...fetched.notFound]);
    return { ...fetched, icons: [...icons.values()], aliases: [...aliases.values()], notFound: asked.filter((name) => notFound.has(name)) };
  }

  /** Keeps what of an answer is the same for every caller: free icons, aliases of free icons, and (from an anonymous answer) the names not found. */
  function keep(data: IconsData, asked: readonly string[], anonymousCaller: boolean): void {
    if (!keeping) return;
    sets.set(data.prefix, { lastModified: data.lastModified, palette: data.palette });
    const icons = new Map(data.icons.map((icon) => [icon.name, icon]));
    const aliasOf = new Map(data.aliases.map((alias) => [alias.name, alias]));
    const notFound = new Set(data.notFound);
    for (const name of asked) {
      const key = `${data.prefix}\n${name}`;
      if (notFound.has(name)) {
        if (anonymousCaller) names.set(key, { kind: 'missing' });
        continue;
      }
      const icon = icons.get(name);
      if (icon) {
        if (!icon.premium) names.set(key, { kind: 'icon', icon });
        continue;
      }
      const chain: AliasData[] = [];
      for (let alias = aliasOf.get(name); alias && chain.length <= aliasOf.size; alias = aliasOf.get(alias.parent)) chain.push(alias);
      const end = chain.length ? icons.get(chain.at(-1)!.parent) : undefined;
      if (end && !end.premium) names.set(key, { kind: 'alias', aliases: chain, icon: end });
    }
  }

  async function iconsData(exchange: Exchange, prefix: string, asked: readonly string[]): Promise<IconsData | GatewayResponse> {
    const anonymousCaller = anonymous(exchange);
    const kept = keeping ? keptIcons(prefix, asked, anonymousCaller) : undefined;
    if (kept && kept.missing.length === 0) {
      exchange.responseHeaders['x-cache'] = 'HIT';
      return kept.data;
    }
    const toAsk = kept ? kept.missing : asked;
    const data = await run<IconsData>(exchange, 'icons', { prefix, names: toAsk });
    if (isResponse(data)) return data;
    exchange.responseHeaders['x-cache'] = 'MISS';
    keep(data, toAsk, anonymousCaller);
    return kept ? merged(asked, kept.data, data) : data;
  }

  /** The names of `icons=` (Iconify's components ask for one set's icons, comma-separated); names that cannot be icons are not_found without a lookup. */
  function askedNames(query: URLSearchParams): { asked: string[]; impossible: string[] } {
    const given = single(query, 'icons');
    if (!given) throw new ProtocolError('icons must list the icons wanted, comma-separated, for example icons=home,account');
    const all = [...new Set(given.split(',').map((name) => name.trim()).filter(Boolean))];
    if (all.length > options.maxIconsPerRequest) throw new ProtocolError(`icons may list at most ${options.maxIconsPerRequest} icons (got ${all.length})`);
    const possible = (name: string) => name.length <= MAX_NAME_LENGTH && ICON_NAME.test(name);
    return { asked: all.filter(possible), impossible: all.filter((name) => !possible(name)) };
  }

  /**
   * Who may keep an answer: anyone (CDNs included) when it is made of free icons for an
   * anonymous caller; the caller only when a key asked (its premium icons, or its not_found
   * list, may differ from everyone else's).
   */
  function cacheControl(exchange: Exchange, icons: readonly IconData[]): string {
    if (anonymous(exchange) && !icons.some((icon) => icon.premium)) return `public, max-age=${options.maxAgeSeconds}`;
    return 'private, no-cache';
  }

  async function iconsJson(exchange: Exchange, prefix: string): Promise<GatewayResponse> {
    const { asked, impossible } = askedNames(exchange.query);
    const data = await iconsData(exchange, prefix, asked);
    if (isResponse(data)) return data;
    const json = iconifyJson({ ...data, notFound: [...data.notFound, ...impossible] });
    return jsonResponse(200, JSON.stringify(json), { 'cache-control': cacheControl(exchange, data.icons) });
  }

  async function stylesheet(exchange: Exchange, prefix: string): Promise<GatewayResponse> {
    const { asked, impossible } = askedNames(exchange.query);
    const css = cssOptions(exchange.query);
    const download = flag(exchange.query, 'download');
    const data = await iconsData(exchange, prefix, asked);
    if (isResponse(data)) return data;
    const headers: Record<string, string> = { 'content-type': 'text/css; charset=utf-8', 'cache-control': cacheControl(exchange, data.icons), 'x-content-type-options': 'nosniff' };
    if (download) headers['content-disposition'] = `attachment; filename="${prefix}.css"`;
    return { status: 200, headers, body: iconsCss(iconifyJson(data), [...asked, ...impossible], data.palette, css) };
  }

  async function svgFile(exchange: Exchange, prefix: string, name: string): Promise<GatewayResponse> {
    const customizations = svgCustomizations(exchange.query, options.svgSize);
    const download = flag(exchange.query, 'download');
    const fileKey = `${prefix}/${name}?${queryKey(exchange.query)}`;
    const kept = keepingSvg ? svgFiles.get(fileKey) : undefined;
    if (kept !== undefined) {
      exchange.responseHeaders['x-cache'] = 'HIT';
      return svgResponse(exchange, kept, [], name, download);
    }
    const data = await iconsData(exchange, prefix, [name]);
    if (isResponse(data)) return data;
    const svg = data.notFound.length ? undefined : iconSvg(iconifyJson(data), name, customizations);
    if (svg === undefined) return errorResponse(404, `No icon "${name}" in the set "${prefix}"`);
    if (keepingSvg && !data.icons.some((icon) => icon.premium)) svgFiles.set(fileKey, svg);
    return svgResponse(exchange, svg, data.icons, name, download);
  }

  function svgResponse(exchange: Exchange, svg: string, icons: readonly IconData[], name: string, download: boolean | undefined): GatewayResponse {
    const headers: Record<string, string> = {
      'content-type': 'image/svg+xml; charset=utf-8',
      'cache-control': cacheControl(exchange, icons),
      'x-content-type-options': 'nosniff',
      // Opened at its own address, the file may not run anything even if markup slipped through.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    };
    if (download) headers['content-disposition'] = `attachment; filename="${name}.svg"`;
    return { status: 200, headers, body: svg };
  }

  async function allSets(exchange: Exchange): Promise<SetData[] | GatewayResponse> {
    if (setList && keeping && performance.now() - setList.at < options.cacheSeconds * 1000) return setList.sets;
    const listed = await run<SetData[]>(exchange, 'sets', {});
    if (isResponse(listed)) return listed;
    setList = { at: performance.now(), sets: listed };
    return listed;
  }

  /**
   * A list's answer, kept by its path and query for cacheSeconds. `perCaller`: it names premium
   * icons its caller owns, so an answer to a key is neither kept nor public.
   */
  async function listAnswer(exchange: Exchange, key: string, make: () => Promise<unknown>, { perCaller = false } = {}): Promise<GatewayResponse> {
    if (perCaller && !anonymous(exchange)) {
      const made = await make();
      return isResponse(made) ? made : jsonResponse(200, JSON.stringify(made), { 'cache-control': 'private, no-cache' });
    }
    const headers = { 'cache-control': `public, max-age=${options.maxAgeSeconds}` };
    const kept = keeping ? lists.get(key) : undefined;
    if (kept) {
      exchange.responseHeaders['x-cache'] = 'HIT';
      return jsonResponse(200, kept, headers);
    }
    const made = await make();
    if (isResponse(made)) return made;
    const bytes = Buffer.from(JSON.stringify(made));
    exchange.responseHeaders['x-cache'] = 'MISS';
    if (keeping) lists.set(key, bytes);
    return jsonResponse(200, bytes, headers);
  }

  /** The query as a cache key: its parameters sorted, so that their order does not make another entry. */
  const queryKey = (query: URLSearchParams) => [...query].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, value]) => `${name}=${value}`).join('&');

  async function collections(exchange: Exchange): Promise<GatewayResponse> {
    const exact = single(exchange.query, 'prefix') ?? null;
    const list = single(exchange.query, 'prefixes') ?? null;
    return listAnswer(exchange, `collections?${exact}&${list}`, async () => {
      const all = await allSets(exchange);
      if (isResponse(all)) return all;
      const chosen = new Set(choosePrefixes(all.map((set) => set.prefix), exact, list));
      return Object.fromEntries(all.filter((set) => chosen.has(set.prefix)).map((set) => [set.prefix, setInfo(set)]));
    });
  }

  async function lastModified(exchange: Exchange): Promise<GatewayResponse> {
    const exact = single(exchange.query, 'prefix') ?? null;
    const list = single(exchange.query, 'prefixes') ?? null;
    return listAnswer(exchange, `last-modified?${exact}&${list}`, async () => {
      const all = await allSets(exchange);
      if (isResponse(all)) return all;
      const chosen = new Set(choosePrefixes(all.map((set) => set.prefix), exact, list));
      return { lastModified: Object.fromEntries(all.filter((set) => chosen.has(set.prefix)).map((set) => [set.prefix, set.lastModified])) };
    });
  }

  async function collection(exchange: Exchange): Promise<GatewayResponse> {
    const prefix = single(exchange.query, 'prefix');
    if (!prefix) throw new ProtocolError('prefix must name an icon set, for example prefix=mdi');
    const info = flag(exchange.query, 'info') ?? false;
    const chars = flag(exchange.query, 'chars') ?? false;
    if (!NAME.test(prefix) || prefix.length > MAX_NAME_LENGTH) return errorResponse(404, `No icon set "${prefix}"`);
    return listAnswer(exchange, `collection?${prefix}&${info}&${chars}`, async () => {
      const data = await run<CollectionData>(exchange, 'collection', { prefix, chars });
      return isResponse(data) ? data : collectionJson(data, { info });
    }, { perCaller: true });
  }

  function searchLimit(query: URLSearchParams): number {
    const given = single(query, 'limit') ?? single(query, 'min');
    if (given === undefined) return SEARCH_LIMIT.default;
    if (!/^\d{1,6}$/.test(given) || Number(given) === 0) throw new ProtocolError(`limit must be a whole number from ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max} (got "${given}")`);
    return Math.min(SEARCH_LIMIT.max, Math.max(SEARCH_LIMIT.min, Number(given)));
  }

  async function search(exchange: Exchange): Promise<GatewayResponse> {
    const { query } = exchange;
    const text = single(query, 'query');
    if (!text) throw new ProtocolError('query must be the text to search for, for example query=home');
    const limit = searchLimit(query);
    const startGiven = single(query, 'start') ?? '0';
    if (!/^\d{1,4}$/.test(startGiven) || Number(startGiven) >= limit) throw new ProtocolError(`start must be a whole number below limit (${limit}) (got "${startGiven}")`);
    const start = Number(startGiven);
    const exact = single(query, 'prefix') ?? single(query, 'collection') ?? null;
    const list = single(query, 'prefixes') ?? null;
    const category = single(query, 'category');
    return listAnswer(exchange, `search?${queryKey(query)}`, async () => {
      const all = await allSets(exchange);
      if (isResponse(all)) return all;
      const filtered = exact !== null || list !== null;
      const prefixes = filtered ? choosePrefixes(all.map((set) => set.prefix), exact, list) : undefined;
      const found =
        prefixes?.length === 0
          ? []
          : await run<string[]>(exchange, 'search', { q: text, limit, prefixes: prefixes ?? null, category: category ? slugOf(category) : null });
      if (isResponse(found)) return found;
      const setsFound = new Set(found.map((name) => name.slice(0, name.indexOf(':'))));
      return {
        icons: found.slice(start),
        total: found.length,
        limit,
        start,
        collections: Object.fromEntries(all.filter((set) => setsFound.has(set.prefix)).map((set) => [set.prefix, setInfo(set)])),
        request: Object.fromEntries(query),
      };
    }, { perCaller: true });
  }

  function endpointOf(path: string): Endpoint | undefined {
    if (!path.startsWith(`${base}/`)) return undefined;
    const rest = path.slice(base.length + 1);
    switch (rest) {
      case 'collections':
      case 'collection':
      case 'search':
      case 'last-modified':
      case 'version':
        return { kind: rest };
    }
    const file = /^([a-z0-9-]+)\.(json|js|css)$/.exec(rest);
    if (file && NAME.test(file[1]!)) return file[2] === 'css' ? { kind: 'css', prefix: file[1]! } : { kind: 'icons', prefix: file[1]!, script: file[2] === 'js' };
    const svg = /^([a-z0-9-]+)\/([a-z0-9_-]+)\.svg$/.exec(rest);
    if (svg && NAME.test(svg[1]!) && ICON_NAME.test(svg[2]!) && svg[2]!.length <= MAX_NAME_LENGTH) return { kind: 'svg', prefix: svg[1]!, name: svg[2]! };
    return { kind: 'unknown' };
  }

  const routeOf: Record<Endpoint['kind'], string> = {
    icons: `${base}/{prefix}.json`,
    css: `${base}/{prefix}.css`,
    svg: `${base}/{prefix}/{name}.svg`,
    collections: `${base}/collections`,
    collection: `${base}/collection`,
    search: `${base}/search`,
    'last-modified': `${base}/last-modified`,
    version: `${base}/version`,
    unknown: `${base}/*`,
  };

  /** The endpoints whose answer is JSON, which `callback=` turns into a script (JSONP). */
  const JSON_ENDPOINTS = new Set<Endpoint['kind']>(['icons', 'collections', 'collection', 'search', 'last-modified']);

  async function answer(exchange: Exchange, endpoint: Endpoint): Promise<GatewayResponse> {
    try {
      const callback = JSON_ENDPOINTS.has(endpoint.kind) ? jsonpCallback(exchange.query, endpoint.kind === 'icons' && endpoint.script ? SCRIPT_CALLBACK : undefined) : undefined;
      const response = await answerEndpoint(exchange, endpoint);
      return callback === undefined ? response : jsonp(response, callback);
    } catch (error) {
      if (error instanceof ProtocolError) return errorResponse(400, error.message);
      throw error;
    }
  }

  async function answerEndpoint(exchange: Exchange, endpoint: Endpoint): Promise<GatewayResponse> {
    switch (endpoint.kind) {
      case 'icons':
        return await iconsJson(exchange, endpoint.prefix);
      case 'css':
        return await stylesheet(exchange, endpoint.prefix);
      case 'svg':
        return await svgFile(exchange, endpoint.prefix, endpoint.name);
      case 'collections':
        return await collections(exchange);
      case 'collection':
        return await collection(exchange);
      case 'search':
        return await search(exchange);
      case 'last-modified':
        return await lastModified(exchange);
      case 'version':
        return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }, body: 'Icon Catalogue API, Iconify protocol' };
      case 'unknown':
        return errorResponse(404, `Nothing at ${exchange.path}`);
    }
  }

  return {
    name: 'iconify-protocol',
    // Its operations are fixed at the start, as the REST routes' are: run compiled, not walked by Mesh's executor on every request.
    yoga: [useCompiledOperations(new Set(Object.values(documents)), keptCompiledQueries(services.keep))],
    stages: {
      route(exchange) {
        const endpoint = endpointOf(exchange.path);
        if (!endpoint) return undefined;
        exchange.destination = { kind: 'file', route: routeOf[endpoint.kind], keyOptional: true };
        exchange[ENDPOINT] = endpoint;
        return methodNotAllowed(exchange, READ_METHODS);
      },
      handle(exchange) {
        const endpoint = exchange[ENDPOINT] as Endpoint | undefined;
        return endpoint ? answer(exchange, endpoint) : undefined;
      },
    },
    bind(served) {
      const { schema } = served();
      for (const [operation, document] of Object.entries(documents)) {
        const problems = operations.validate(schema, document);
        if (problems.length) throw new ConfigError(`operation ${operation} does not fit the schema: ${problems.map((problem) => problem.message).join('; ')}`);
      }
      enveloped = operationEnvelope(served);
    },
  };
};

/** A JSON answer as a script calling `callback` with it; an error stays JSON (its status is what a client reads). */
function jsonp(response: GatewayResponse, callback: string): GatewayResponse {
  if (response.status !== 200) return response;
  const json = typeof response.body === 'string' ? response.body : response.body.toString('utf8');
  return {
    ...response,
    headers: { ...response.headers, 'content-type': 'application/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' },
    body: `${callback}(${json});`,
  };
}

/** A category as the catalogue's `category` filter takes it: its slug (`Brands / Social` -> brands-social). */
function slugOf(category: string): string {
  return category
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
