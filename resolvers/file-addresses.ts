// Signed file addresses: what an owner of a premium icon is given so that an <img> (which
// sends no key) can load it, and their check when a file is asked for. A signature is bound to
// the icon's id and its expiry; the expiry is rounded up to a step of a quarter of its life, so
// that answers within one step are identical (their ETags and cached copies hold).
import type { CatalogueContext } from './context.ts';
import { catalogueError } from './errors.ts';

/** `url` with `expires` and `signature` for the icon, when the context can sign. */
export function signedAddress(context: CatalogueContext, url: string, iconId: number, nowSeconds = Date.now() / 1000): string {
  const signing = context.signedUrls;
  if (!signing) return url;
  const step = Math.max(1, Math.floor(signing.seconds / 4));
  const expires = Math.ceil((nowSeconds + signing.seconds) / step) * step;
  const signature = signing.signer.sign(String(iconId), expires);
  return `${url}${url.includes('?') ? '&' : '?'}expires=${expires}&signature=${signature}`;
}

/** Whether a file request carries a valid signature for the icon: false when it carries none; FORBIDDEN when it is wrong or expired. */
export function signatureHolds(context: CatalogueContext, iconId: number, expires: number | null | undefined, signature: string | null | undefined): boolean {
  if ((expires === null || expires === undefined) && (signature === null || signature === undefined)) return false;
  if (expires === null || expires === undefined || !signature || !context.signedUrls) {
    throw catalogueError('FORBIDDEN', 'A signed address needs both expires and signature, as the icon’s svg_url gives them');
  }
  const verdict = context.signedUrls.signer.check(String(iconId), expires, signature);
  if (verdict === 'expired') throw catalogueError('FORBIDDEN', 'This signed address has expired: ask for the icon again for a new one');
  if (verdict === 'invalid') throw catalogueError('FORBIDDEN', 'This signed address is not valid for this icon');
  return true;
}
