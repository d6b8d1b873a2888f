// The portal's HTTP plumbing: form bodies, its cookie, whether a request came over HTTPS, and
// whether a state-changing request comes from the portal's own pages (the Origin check).
import type { TLSSocket } from 'node:tls';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import { errorResponse } from '../../pipeline/responses.ts';

/** A form of the portal is a few hundred bytes; anything much larger is not one. */
export const MAX_FORM_BYTES = 16 * 1024;

/** The form fields of a urlencoded POST, or the 4xx that refuses it. */
export async function readForm(exchange: Exchange): Promise<URLSearchParams | GatewayResponse> {
  const type = (exchange.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return errorResponse(415, 'The portal takes forms (application/x-www-form-urlencoded)');
  const declared = Number(exchange.header('content-length') ?? 0);
  if (declared > MAX_FORM_BYTES) return errorResponse(413, `A form is at most ${MAX_FORM_BYTES} bytes`, { connection: 'close' });
  const text = await readText(exchange);
  if (text === undefined) return errorResponse(413, `A form is at most ${MAX_FORM_BYTES} bytes`, { connection: 'close' });
  return new URLSearchParams(text);
}

/** The body as text; undefined when it is longer than MAX_FORM_BYTES. */
async function readText(exchange: Exchange): Promise<string | undefined> {
  const { request, req } = exchange.carrier;
  const chunks: Buffer[] = [];
  let size = 0;
  // Yoga (mesh dev, mesh start) hands a fetch Request; the node:http front its IncomingMessage.
  const source: AsyncIterable<Uint8Array> | null | undefined = request ? request.body : req;
  if (!source) return '';
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function cookieValue(exchange: Exchange, name: string): string | undefined {
  const header = exchange.header('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether the client reached us over HTTPS: TLS on the socket, or X-Forwarded-Proto as the
 * nearest trusted proxy wrote it (a client's own X-Forwarded-Proto is ignored without one).
 */
export function cameOverHttps(exchange: Exchange, trustedProxies: number): boolean {
  const { req, request } = exchange.carrier;
  if ((req?.socket as TLSSocket | undefined)?.encrypted) return true;
  if (request?.url.startsWith('https:')) return true;
  if (trustedProxies <= 0) return false;
  const forwarded = exchange.header('x-forwarded-proto');
  return forwarded?.split(',').at(-1)?.trim().toLowerCase() === 'https';
}

/**
 * Whether a state-changing request comes from a page of this origin (or an allowed one): the
 * Origin header, or failing it Sec-Fetch-Site, or failing both the Referer's origin. A request
 * that names none of them is refused: every browser sends Origin with a form post, and a
 * request without it is not one of the portal's pages.
 */
export function sameOrigin(exchange: Exchange, https: boolean, allowedOrigins: readonly string[]): boolean {
  const host = exchange.header('host');
  const own = host ? `${https ? 'https' : 'http'}://${host.toLowerCase()}` : undefined;
  const accepted = (origin: string) => origin === own || allowedOrigins.includes(origin);
  const origin = exchange.header('origin');
  if (origin !== undefined) return origin !== 'null' && accepted(origin.toLowerCase());
  const site = exchange.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const referer = exchange.header('referer');
  return referer !== undefined && URL.canParse(referer) && accepted(new URL(referer).origin);
}
