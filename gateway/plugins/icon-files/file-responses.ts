// A file's response from its icon's data: the customized SVG (compressed as the client accepts)
// or the rendered PNG, with validators and who may keep it for how long.
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import { matchesETag, strongETag } from '../rest-routes/etag.ts';
import { customizedSvg, type Customization } from './customize.ts';
import { chooseEncoding, encode, type Encoding } from './encoding.ts';
import type { IconFileCaches } from './file-caches.ts';
import type { IconFileData } from './file-request.ts';
import type { IconFilesOptions } from './options.ts';
import { renderPng } from './png.ts';

/**
 * Who may keep the file, and how long: a free icon's file anyone (CDNs included), forever when
 * asked for at its current version (`v=`, which changes with the content), else for
 * maxAgeSeconds; a premium one the caller only.
 */
function cacheControl(exchange: Exchange, data: IconFileData, options: IconFilesOptions): string {
  if (!data.premium) {
    return exchange.query.get('v') === data.version ? `public, max-age=${options.versionedMaxAgeSeconds}, immutable` : `public, max-age=${options.maxAgeSeconds}`;
  }
  const expires = Number(exchange.query.get('expires'));
  const left = Math.floor(expires - Date.now() / 1000);
  return exchange.query.has('signature') && left > 0 ? `private, max-age=${Math.min(left, options.maxAgeSeconds)}` : 'private, no-cache';
}

export function svgResponse(exchange: Exchange, data: IconFileData, customization: Customization, options: IconFilesOptions, caches: IconFileCaches): GatewayResponse {
  const svg = customizedSvg(data.body, data, customization);
  const etag = strongETag(svg);
  const encoding: Encoding = chooseEncoding(exchange.header('accept-encoding'), Buffer.byteLength(svg));
  // One strong validator per representation (RFC 9110, 8.8.3.3): the coded ones are tagged.
  const tagged = encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`;
  const headers: Record<string, string> = {
    'content-type': 'image/svg+xml',
    etag: tagged,
    'cache-control': cacheControl(exchange, data, options),
    'x-content-type-options': 'nosniff',
    // Opened at its own address, the file may not run anything even if markup slipped through.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  };
  const vary = exchange.responseHeaders.vary;
  exchange.responseHeaders.vary = vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
  if (matchesETag(exchange.header('if-none-match'), tagged) || matchesETag(exchange.header('if-none-match'), etag)) return { status: 304, headers, body: '' };
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  const body = encoding === 'identity' ? Buffer.from(svg) : (caches.finishedBytes(`${etag}|${encoding}`, () => encode(Buffer.from(svg), encoding)) as Buffer);
  return { status: 200, headers, body };
}

export async function pngResponse(
  exchange: Exchange,
  data: IconFileData,
  { customization, size }: { customization: Customization; size: number },
  options: IconFilesOptions,
  caches: IconFileCaches,
): Promise<GatewayResponse> {
  const svg = customizedSvg(data.body, data, customization);
  const etag = `${strongETag(svg).slice(0, -1)}-${size}"`;
  const headers: Record<string, string> = { 'content-type': 'image/png', etag, 'cache-control': cacheControl(exchange, data, options) };
  if (matchesETag(exchange.header('if-none-match'), etag)) return { status: 304, headers, body: '' };
  const turned = customization.rotate % 2 === 1 ? { width: data.height, height: data.width } : data;
  return { status: 200, headers, body: await caches.finishedBytes(etag, () => renderPng(svg, size, turned)) };
}
