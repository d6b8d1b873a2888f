// Icons' files at the addresses `svg_url` gives: SVG at /svg/{prefix}/{name}.svg and PNG at
// /png/{prefix}/{name}.png?size=, customized (customize.ts), for <img> tags and CDNs; and every
// icon's public preview at the address `preview_url` gives (preview.ts). An <img>
// sends no key, so a file request needs none: without one it is counted as anonymous, per
// client address. Who may fetch which file is the resolvers' rule (Query.iconFile): this
// plugin runs the named operation through the served schema's envelope, as the REST routes do,
// and never reads the database itself. Free icons' data is kept for cacheSeconds; finished
// bytes (compressed SVGs, PNGs) are kept by content, so a premium file is never served from
// another caller's answer without its own check.
import { isAbsolute, resolve } from 'node:path';
import { print, type DocumentNode, type ExecutionResult, type GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import { whenReady, type MaybePromise } from '../../../lib/maybe-promise.ts';
import { ownedBytes } from '../../../lib/owned-bytes.ts';
import { ConfigError } from '../../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../../lib/project-root.ts';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import { operationEnvelope, type OperationEnvelope } from '../../pipeline/operation-envelope.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse, methodNotAllowed, READ_METHODS } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { matchesETag, strongETag } from '../rest-routes/etag.ts';
import { sharedOperations } from '../rest-routes/operations.ts';
import { CustomizationError, customizedSvg, parseCustomization, type Customization } from './customize.ts';
import { describeIconFiles } from './description.ts';
import { chooseEncoding, encode, type Encoding } from './encoding.ts';
import { fileOf } from './file-path.ts';
import { iconFilesOptions } from './options.ts';
import { renderPng } from './png.ts';
import { iconPreviews } from './preview.ts';

/** What the operation gives of an icon's file. */
interface IconFileData {
  body: string;
  width: number;
  height: number;
  premium: boolean;
  /** The version of the file's content (`v=` of the address svg_url gives). */
  version: string;
}

interface FileRequest {
  format: 'svg' | 'png';
  prefix: string;
  name: string;
}

export const useIconFiles: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(iconFilesOptions, rawOptions, where);
  const operationsDir = isAbsolute(options.operations) ? options.operations : resolve(PROJECT_ROOT, options.operations);
  const operations = sharedOperations(operationsDir, services.keep);
  const document: DocumentNode = operations.document(options.operation);
  const FILE = Symbol('icon-files: the file a request names');
  const routes = { svg: `${options.svgPath}/{prefix}/{name}.svg`, png: `${options.pngPath}/{prefix}/{name}.png` };
  let enveloped: OperationEnvelope | undefined;
  const previews = iconPreviews(options, services, { document, name: options.operation }, () => enveloped);

  /**
   * Free icons' data by prefix/name (the same for every caller), for cacheSeconds, bounded by its
   * markup's bytes: a count alone let 10,000 icons hold 40 MB of heap under distinct files, and
   * would let large icons (up to 900 KB of markup on the full catalogue) hold far more.
   */
  // Kept across a config reload while what they hold cannot have changed: the data while the
  // operation and its cache options are the same, the finished bytes (by content) while their size is.
  const dataSettings = { document: print(document), maxSize: options.dataCacheMaxBytes, seconds: options.cacheSeconds };
  const freeFiles = services.keep(
    'icon-files:data',
    dataSettings,
    () =>
      new LRUCache<string, IconFileData>({
        maxSize: Math.max(1, options.dataCacheMaxBytes),
        sizeCalculation: (data, key) => data.body.length + data.version.length + key.length + 96,
        ttl: Math.max(1, options.cacheSeconds) * 1000,
      }),
  );
  /** Finished bytes by content (an SVG's ETag and the coding or PNG size): safe to share. Counted with their keys, as the response cache counts. */
  const finished = services.keep(
    'icon-files:finished',
    { maxSize: options.cacheMaxBytes },
    () => new LRUCache<string, Buffer>({ maxSize: Math.max(1, options.cacheMaxBytes), sizeCalculation: (bytes, key) => bytes.length + key.length + 64 }),
  );

  async function run(exchange: Exchange, file: FileRequest): Promise<ExecutionResult> {
    if (!enveloped) throw new Error('icon-files is not bound to a schema yet');
    const { schema, contextValue, execute } = await enveloped(exchange.carrier);
    const expires = exchange.query.get('expires');
    const variableValues = {
      prefix: file.prefix,
      name: file.name,
      // A malformed expiry is kept as a number that no signature matches (403, not 400: it is not the client's to compose).
      expires: expires === null ? null : /^\d{1,10}$/.test(expires) ? Math.min(Number(expires), 2 ** 31 - 1) : 0,
      signature: exchange.query.get('signature'),
    };
    return (await execute({ schema, document, variableValues, contextValue, operationName: options.operation })) as ExecutionResult;
  }

  /** The icon's data: from the cache of free icons, else from the operation (a GraphQL error as its response). */
  async function iconFile(exchange: Exchange, file: FileRequest): Promise<IconFileData | GatewayResponse> {
    const signed = exchange.query.has('signature') || exchange.query.has('expires');
    const key = `${file.prefix}/${file.name}`;
    const kept = signed ? undefined : freeFiles.get(key);
    if (kept) {
      exchange.responseHeaders['x-cache'] = 'HIT';
      return kept;
    }
    const result = await run(exchange, file);
    if (result.errors?.length) return services.errors.fromGraphQL(result.errors as GraphQLError[], exchange);
    const data = (result.data as { iconFile: IconFileData }).iconFile;
    exchange.responseHeaders['x-cache'] = 'MISS';
    if (!data.premium && !signed && options.cacheSeconds > 0 && options.dataCacheMaxBytes > 0) freeFiles.set(key, data);
    return data;
  }

  /**
   * Who may keep the file, and how long: a free icon's file anyone (CDNs included), forever when
   * asked for at its current version (`v=`, which changes with the content), else for
   * maxAgeSeconds; a premium one the caller only.
   */
  function cacheControl(exchange: Exchange, data: IconFileData): string {
    if (!data.premium) {
      return exchange.query.get('v') === data.version ? `public, max-age=${options.versionedMaxAgeSeconds}, immutable` : `public, max-age=${options.maxAgeSeconds}`;
    }
    const expires = Number(exchange.query.get('expires'));
    const left = Math.floor(expires - Date.now() / 1000);
    return exchange.query.has('signature') && left > 0 ? `private, max-age=${Math.min(left, options.maxAgeSeconds)}` : 'private, no-cache';
  }

  /** Finished bytes by content, made once while they stay in the cache: synchronously for a compressed SVG, later for a rendered PNG. */
  function finishedBytes(key: string, make: () => MaybePromise<Buffer>): MaybePromise<Buffer> {
    const kept = finished.get(key);
    if (kept) return kept;
    return whenReady(make, (made) => {
      // zlib's output is a slice of a 16 KiB block: kept as it is, a 100-byte file held the block.
      const bytes = ownedBytes(made);
      finished.set(key, bytes);
      return bytes;
    });
  }

  function svgResponse(exchange: Exchange, data: IconFileData, customization: Customization): GatewayResponse {
    const svg = customizedSvg(data.body, data, customization);
    const etag = strongETag(svg);
    const encoding: Encoding = chooseEncoding(exchange.header('accept-encoding'), Buffer.byteLength(svg));
    // One strong validator per representation (RFC 9110, 8.8.3.3): the coded ones are tagged.
    const tagged = encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`;
    const headers: Record<string, string> = {
      'content-type': 'image/svg+xml',
      etag: tagged,
      'cache-control': cacheControl(exchange, data),
      'x-content-type-options': 'nosniff',
      // Opened at its own address, the file may not run anything even if markup slipped through.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    };
    const vary = exchange.responseHeaders.vary;
    exchange.responseHeaders.vary = vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
    if (matchesETag(exchange.header('if-none-match'), tagged) || matchesETag(exchange.header('if-none-match'), etag)) return { status: 304, headers, body: '' };
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    const body = encoding === 'identity' ? Buffer.from(svg) : (finishedBytes(`${etag}|${encoding}`, () => encode(Buffer.from(svg), encoding)) as Buffer);
    return { status: 200, headers, body };
  }

  async function pngResponse(exchange: Exchange, data: IconFileData, customization: Customization, size: number): Promise<GatewayResponse> {
    const svg = customizedSvg(data.body, data, customization);
    const etag = `${strongETag(svg).slice(0, -1)}-${size}"`;
    const headers: Record<string, string> = { 'content-type': 'image/png', etag, 'cache-control': cacheControl(exchange, data) };
    if (matchesETag(exchange.header('if-none-match'), etag)) return { status: 304, headers, body: '' };
    const turned = customization.rotate % 2 === 1 ? { width: data.height, height: data.width } : data;
    return { status: 200, headers, body: await finishedBytes(etag, () => renderPng(svg, size, turned)) };
  }

  function pngSize(query: URLSearchParams): number {
    const given = query.getAll('size');
    if (given.length > 1) throw new CustomizationError(`size is given ${given.length} times; give it once`);
    const value = given[0]?.trim();
    if (!value) return options.pngSize.default;
    const { min, max } = options.pngSize;
    if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) throw new CustomizationError(`size must be a whole number from ${min} to ${max} (got "${value}")`);
    return Number(value);
  }

  /** Synchronous for every request that is not a file's (the REST routes' cache hits stay so). */
  function handle(exchange: Exchange): Promise<GatewayResponse> | undefined {
    const file = exchange[FILE] as FileRequest | undefined;
    return file ? answer(exchange, file) : previews.handle(exchange);
  }

  async function answer(exchange: Exchange, file: FileRequest): Promise<GatewayResponse> {
    let customization: Customization;
    let size = 0;
    try {
      if (file.format === 'svg') customization = parseCustomization(exchange.query, options.svgSize);
      else {
        customization = parseCustomization(exchange.query, options.svgSize, { sizeOnly: true });
        size = pngSize(exchange.query);
      }
    } catch (error) {
      if (error instanceof CustomizationError) return errorResponse(400, error.message);
      throw error;
    }
    const data = await iconFile(exchange, file);
    if ('status' in data) return data;
    return file.format === 'svg' ? svgResponse(exchange, data, customization) : pngResponse(exchange, data, customization, size);
  }

  return {
    name: 'icon-files',
    stages: {
      route(exchange) {
        if (previews.claim(exchange)) return methodNotAllowed(exchange, READ_METHODS);
        const svg = fileOf(exchange.path, options.svgPath, '.svg');
        const png = svg ? undefined : fileOf(exchange.path, options.pngPath, '.png');
        const named = svg ?? png;
        if (!named) return undefined;
        const format = svg ? 'svg' : 'png';
        exchange.destination = { kind: 'file', route: routes[format], keyOptional: true };
        exchange[FILE] = { format, ...named } satisfies FileRequest;
        return methodNotAllowed(exchange, READ_METHODS);
      },
      handle,
    },
    describes: describeIconFiles(options, { ...routes, preview: previews.route }),
    bind(served) {
      const { schema } = served();
      const problems = operations.validate(schema, document);
      if (problems.length) throw new ConfigError(`operation ${options.operation} does not fit the schema: ${problems.map((problem) => problem.message).join('; ')}`);
      enveloped = operationEnvelope(served);
    },
    watches: [operationsDir],
  };
};
