// Signed addresses: an owner can put a premium icon in an <img>, which cannot send a key, by
// using an address that carries its own short-lived proof (HMAC-SHA256 of the icon and the
// expiry). The secret comes from URL_SIGNING_SECRET, or is made once into .data/ (mode 0600),
// where every process of this checkout finds the same one; several hosts must share
// URL_SIGNING_SECRET. It is never logged.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-validation.ts';

export interface UrlSigner {
  /** The signature of `subject` (for example an icon id) valid until `expires` (Unix seconds). */
  sign(subject: string, expires: number): string;
  /** 'valid', or why not: a signature that does not match, or one past its expiry. */
  check(subject: string, expires: number, signature: string): 'valid' | 'invalid' | 'expired';
}

export function createUrlSigner(secret: Buffer, now: () => number = () => Date.now() / 1000): UrlSigner {
  const sign = (subject: string, expires: number) => createHmac('sha256', secret).update(`${subject}\n${expires}`).digest('base64url');
  return {
    sign,
    check(subject, expires, signature) {
      const expected = Buffer.from(sign(subject, expires));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return expires < now() ? 'expired' : 'valid';
    },
  };
}

const SECRET_FILE = 'url-signing-secret';

/** URL_SIGNING_SECRET (at least 32 characters), else the secret kept in `dataDir`, made there on first use. */
export function signingSecret(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  const given = env.URL_SIGNING_SECRET;
  if (given !== undefined && given !== '') {
    if (given.length < 32) throw new ConfigError('URL_SIGNING_SECRET must be at least 32 characters long');
    return Buffer.from(given);
  }
  const file = join(dataDir, SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx': of several processes starting at once, one writes it and the others read it.
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let kept = readFileSync(file, 'utf8').trim();
  // Another process may have made the file and not yet written it: a moment to finish.
  for (let attempt = 0; kept.length === 0 && attempt < 50; attempt++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    kept = readFileSync(file, 'utf8').trim();
  }
  if (kept.length < 32) throw new ConfigError(`${file} holds no usable secret: delete it to have a new one made, or set URL_SIGNING_SECRET`);
  return Buffer.from(kept);
}
