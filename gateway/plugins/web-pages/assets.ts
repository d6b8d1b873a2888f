// The pages' files, held in memory: each known by its exact public path (a request never names
// a file on disk, so no path can climb out of a folder), read on first use, with a strong ETag
// from its content and a gzip copy for text. Pages refer to files by versioned addresses
// (`?v=<hash>`), which browsers may keep for a year; any other address is revalidated each time.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import { matchesETag } from '../rest-routes/etag.ts';

const gzipAsync = promisify(gzip);

export interface Asset {
  readonly body: Buffer;
  /** Only when it is smaller. */
  readonly gzipped: Buffer | undefined;
  readonly etag: string;
  readonly version: string;
  readonly type: string;
}

/** Makes a file's content; may ask the shelf for other files' versioned addresses. */
export type AssetSource = (shelf: AssetShelf) => Promise<Buffer | string>;

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  json: 'application/json; charset=utf-8',
};

export function contentTypeOf(path: string): string {
  const type = TYPES[path.slice(path.lastIndexOf('.') + 1)];
  if (!type) throw new Error(`no content type for ${path}`);
  return type;
}

async function makeAsset(content: Buffer | string, type: string): Promise<Asset> {
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  const compressed = type.startsWith('text/') || type.startsWith('image/svg') ? await gzipAsync(body, { level: 9 }) : undefined;
  return { body, gzipped: compressed && compressed.length < body.length ? compressed : undefined, etag: `"${version}"`, version, type };
}

export class AssetShelf {
  private readonly loaded = new Map<string, Promise<Asset>>();

  /** `sources`: public path → how to make it; `types` overrides the type the extension gives. */
  constructor(
    private readonly sources: ReadonlyMap<string, AssetSource>,
    private readonly types: ReadonlyMap<string, string> = new Map(),
  ) {}

  has(path: string): boolean {
    return this.sources.has(path);
  }

  get(path: string): Promise<Asset> {
    let asset = this.loaded.get(path);
    if (!asset) {
      const source = this.sources.get(path);
      if (!source) throw new Error(`no asset ${path}`);
      asset = source(this).then((content) => makeAsset(content, this.types.get(path) ?? contentTypeOf(path)));
      // A failed read is tried again on the next request rather than kept.
      asset.catch(() => this.loaded.delete(path));
      this.loaded.set(path, asset);
    }
    return asset;
  }

  /** The address pages use for `path`: versioned by its content, so that it can be kept for long. */
  async url(path: string): Promise<string> {
    return `${path}?v=${(await this.get(path)).version}`;
  }
}

const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

/** The asset as a response: 304 on a matching If-None-Match, gzip when accepted, kept a year when versioned. */
export function assetResponse(exchange: Exchange, asset: Asset, extraHeaders: Record<string, string> = {}): GatewayResponse {
  const versioned = exchange.query.get('v') === asset.version;
  const headers: Record<string, string> = {
    'content-type': asset.type,
    etag: asset.etag,
    'cache-control': versioned ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...SECURITY_HEADERS,
    ...extraHeaders,
  };
  if (asset.gzipped) headers.vary = 'Accept-Encoding';
  if (matchesETag(exchange.header('if-none-match'), asset.etag)) return { status: 304, headers, body: '' };
  const gzipOk = asset.gzipped !== undefined && /\bgzip\b/i.test(exchange.header('accept-encoding') ?? '');
  if (gzipOk) headers['content-encoding'] = 'gzip';
  return { status: 200, headers, body: gzipOk ? asset.gzipped! : asset.body };
}
