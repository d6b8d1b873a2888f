// Validators of REST responses: a strong ETag of the body, and If-None-Match against it.
import { createHash } from 'node:crypto';

/** Hashing the bytes a response sends spares encoding a string body once more for the hash. */
export function strongETag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110, 13.1.2): `W/"x"` matches `"x"`. */
export function matchesETag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((candidate) => opaqueTag(candidate.trim()) === etag);
}

function opaqueTag(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}
