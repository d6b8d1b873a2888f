// Portal passwords, hashed with scrypt (node:crypto): memory-hard, so a stolen table costs an
// attacker memory as well as time per guess. The parameters live here, once, and are written
// into every hash, so raising them later leaves existing hashes verifiable.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * N = 2^15, r = 8, p = 3: one of the scrypt settings OWASP's password storage guidance lists
 * (equal in cost to 2^17 with p = 1), with a quarter of the memory per hash, so that a gateway
 * with a small heap can verify several sign-ins at once.
 */
export const SCRYPT_PARAMETERS = { N: 2 ** 15, r: 8, p: 3, keyLength: 32, saltLength: 16 } as const;

/** Passwords are bounded: long enough for passphrases, short enough that hashing cannot be made expensive by length. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((done, fail) => scryptCallback(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? fail(error) : done(key))));
}

const memoryFor = (N: number, r: number, p: number) => 128 * N * r * p + 4 * 1024 * 1024;

/** `scrypt$N$r$p$<salt base64>$<hash base64>`. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT_PARAMETERS;
  const salt = randomBytes(saltLength);
  const key = await scrypt(password, salt, keyLength, { N, r, p, maxmem: memoryFor(N, r, p) });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches `stored` (compared in constant time); a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N, r: R, p: P, maxmem: memoryFor(N, R, P) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a password nobody has: verified against when an email is unknown, so that a sign-in
 * with an unknown email costs what one with a wrong password costs.
 */
export function dummyPasswordHash(): Promise<string> {
  return hashPassword(randomBytes(24).toString('base64'));
}
