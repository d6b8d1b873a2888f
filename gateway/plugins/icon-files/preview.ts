// Public PNG previews at the address `preview_url` gives: `<preview.path>/{prefix}/{name}.png`,
// for every published icon, premium ones included, with no key and no signature, so that a
// list can show what it sells. Only a raster of bounded size leaves the gateway (at most
// preview.maxSize pixels, watermarked when configured): never the markup, which stays for
// owners. The icon's body comes from the IconFile operation run in a context marked as the
// preview renderer's (RASTER_PREVIEW, which the file resolver admits); the rules of who may read
// what stay in the resolvers. Not a download: the download-counts routes do not name this path.
import type { DocumentNode, ExecutionResult, GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import { RASTER_PREVIEW } from '../../../resolvers/entitlements.ts';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import type { OperationEnvelope } from '../../pipeline/operation-envelope.ts';
import type { GatewayServices } from '../../pipeline/plugin.ts';
import { errorResponse } from '../../pipeline/responses.ts';
import { matchesETag, strongETag } from '../rest-routes/etag.ts';
import { CustomizationError, customizedSvg } from './customize.ts';
import { fileOf } from './file-path.ts';
import { rasterSize, type IconFileData } from './file-request.ts';
import type { IconFilesOptions } from './options.ts';
import { renderPng } from './png.ts';
import { watermarked } from './watermark.ts';

interface PreviewRequest {
  prefix: string;
  name: string;
}

export interface IconPreviews {
  /** The route template, as the destination and the API's description name it. */
  readonly route: string;
  /** Claims a preview's path for `handle` (true); false for any other path. */
  claim(exchange: Exchange): boolean;
  /** The answer to a claimed request; undefined for any other. */
  handle(exchange: Exchange): Promise<GatewayResponse> | undefined;
}

export function iconPreviews(
  options: IconFilesOptions,
  services: GatewayServices,
  operation: { document: DocumentNode; name: string },
  envelope: () => OperationEnvelope | undefined,
): IconPreviews {
  const { preview } = options;
  const route = `${preview.path}/{prefix}/{name}.png`;
  const REQUEST = Symbol('icon-files: the preview a request names');
  const rendered = services.keep(
    'icon-files:previews',
    { maxSize: preview.cacheMaxBytes },
    () => new LRUCache<string, Buffer>({ maxSize: Math.max(1, preview.cacheMaxBytes), sizeCalculation: (bytes, key) => bytes.length + key.length + 64 }),
  );

  async function source(exchange: Exchange, request: PreviewRequest): Promise<IconFileData | GatewayResponse> {
    const enveloped = envelope();
    if (!enveloped) throw new Error('icon-files is not bound to a schema yet');
    const { schema, contextValue, execute } = await enveloped(exchange.carrier);
    const variableValues = { prefix: request.prefix, name: request.name, expires: null, signature: null };
    const result = (await execute({ schema, document: operation.document, variableValues, contextValue: { ...contextValue, [RASTER_PREVIEW]: true }, operationName: operation.name })) as ExecutionResult;
    if (result.errors?.length) return services.errors.fromGraphQL(result.errors as GraphQLError[], exchange);
    return (result.data as { iconFile: IconFileData }).iconFile;
  }

  async function answer(exchange: Exchange, request: PreviewRequest): Promise<GatewayResponse> {
    let side: number;
    try {
      side = rasterSize(exchange.query, { fallback: preview.maxSize, min: preview.minSize, max: preview.maxSize });
    } catch (error) {
      if (error instanceof CustomizationError) return errorResponse(400, error.message);
      throw error;
    }
    const data = await source(exchange, request);
    if ('status' in data) return data;
    const plain = customizedSvg(data.body, data, { rotate: 0, hFlip: false, vFlip: false });
    const watermark = preview.watermark && (preview.watermark.icons === 'all' || data.premium) ? preview.watermark : undefined;
    const svg = watermark ? watermarked(plain, data, watermark) : plain;
    const etag = `${strongETag(svg).slice(0, -1)}-p${side}"`;
    const versioned = exchange.query.get('v') === data.version;
    const headers: Record<string, string> = {
      'content-type': 'image/png',
      etag,
      // Public for every icon: a preview is the same for everyone, premium or not.
      'cache-control': versioned ? `public, max-age=${options.versionedMaxAgeSeconds}, immutable` : `public, max-age=${options.maxAgeSeconds}`,
      'x-content-type-options': 'nosniff',
    };
    let png = rendered.get(etag);
    headers['x-cache'] = png ? 'HIT' : 'MISS';
    if (matchesETag(exchange.header('if-none-match'), etag)) return { status: 304, headers, body: '' };
    if (!png) {
      png = await renderPng(svg, side, data);
      if (preview.cacheMaxBytes > 0) rendered.set(etag, png);
    }
    return { status: 200, headers, body: png };
  }

  return {
    route,
    claim(exchange) {
      const named = fileOf(exchange.path, preview.path, '.png');
      if (!named) return false;
      exchange.destination = { kind: 'file', route, keyOptional: true };
      exchange[REQUEST] = named satisfies PreviewRequest;
      return true;
    },
    handle(exchange) {
      const request = exchange[REQUEST] as PreviewRequest | undefined;
      return request ? answer(exchange, request) : undefined;
    },
  };
}
