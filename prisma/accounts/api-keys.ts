// API keys: `ick_<public id>_<secret>`. Only the SHA-256 digest of the whole key is stored; the
// public id (not secret) finds the row, and the digests are compared in constant time. The
// secret has about 190 bits of entropy, so a fast hash is the right one: there is nothing to
// brute-force, and verification stays cheap on every request.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../generated/client.ts';
import { logger } from '../../lib/logger.ts';
import { ownedBytes } from '../../lib/owned-bytes.ts';

const KEY_PATTERN = /^ick_([a-z0-9]{10})_([A-Za-z0-9]{32})$/;
const PUBLIC_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface CreatedKey {
  /** The key itself: shown once, never stored. */
  key: string;
  publicId: string;
  accountId: number;
  accountName: string;
  hourlyLimit: number | null;
}

export interface VerifiedKey {
  keyId: number;
  publicId: string;
  accountId: number;
  hourlyLimit: number | null;
}

/** SHA-256 of the whole key: what is stored (as hex), and what a presented key must match. */
function keyDigest(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

export function digestKey(key: string): string {
  return keyDigest(key).toString('hex');
}

/** The public id of a well-formed key, or undefined: malformed keys never reach the database. */
export function publicIdOf(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

function randomString(alphabet: string, length: number): string {
  // Rejection sampling keeps every character uniformly likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

export async function createApiKey(
  prisma: PrismaClient,
  { accountName, hourlyLimit, name }: { accountName: string; hourlyLimit?: number | null; name?: string | null },
): Promise<CreatedKey> {
  const account = await prisma.account.upsert({ where: { name: accountName }, create: { name: accountName }, update: {} });
  return createKeyOf(prisma, account, { hourlyLimit, name });
}

/** A new key of an existing account (the account portal's "Create key"). */
export async function createKeyOf(
  prisma: PrismaClient,
  account: { id: number; name: string },
  { hourlyLimit, name }: { hourlyLimit?: number | null; name?: string | null } = {},
): Promise<CreatedKey> {
  const publicId = randomString(PUBLIC_ALPHABET, 10);
  const key = `ick_${publicId}_${randomString(SECRET_ALPHABET, 32)}`;
  await prisma.apiKey.create({
    data: { publicId, secretHash: digestKey(key), accountId: account.id, hourlyLimit: hourlyLimit ?? null, name: name ?? null },
  });
  return { key, publicId, accountId: account.id, accountName: account.name, hourlyLimit: hourlyLimit ?? null };
}

/** What a gateway needs to check a key with this public id: found by the id, matched by digest. */
export interface ApiKeyRecord {
  /** What a request that proves it holds the key is admitted as. */
  key: VerifiedKey;
  /** SHA-256 of the whole key, as bytes (decoded once, not on every request). */
  secretDigest: Buffer;
  revoked: boolean;
  /**
   * The key itself, once a request proved it by digest: while a gateway keeps this record in
   * memory (keyCacheSeconds), later requests are compared with it in constant time instead of
   * hashed. Never written anywhere; the key cache zeroes it when it drops the record.
   */
  proven?: Buffer;
}

/** The record of a public id, or null when no key has it. */
export async function findApiKeyRecord(prisma: PrismaClient, publicId: string): Promise<ApiKeyRecord | null> {
  const row = await prisma.apiKey.findUnique({
    where: { publicId },
    select: { id: true, secretHash: true, accountId: true, hourlyLimit: true, revokedAt: true, account: { select: { disabledAt: true } } },
  });
  if (!row) return null;
  return {
    key: { keyId: row.id, publicId, accountId: row.accountId, hourlyLimit: row.hourlyLimit },
    secretDigest: ownedBytes(Buffer.from(row.secretHash, 'hex')),
    // A disabled account's keys are revoked too (accounts disable); this holds even for one revoked by hand later.
    revoked: row.revokedAt !== null || row.account.disabledAt !== null,
  };
}

/**
 * The verified key if `presented` is the key of `record` and the key is not revoked: compared in
 * constant time with the key a request already proved against this record, else by digest.
 */
export function checkApiKey(record: ApiKeyRecord | null, presented: string): VerifiedKey | undefined {
  if (!record || record.revoked) return undefined;
  const bytes = Buffer.from(presented, 'latin1'); // keys are ASCII (KEY_PATTERN)
  if (record.proven) return sameBytes(record.proven, bytes) ? record.key : undefined;
  if (!sameBytes(record.secretDigest, keyDigest(presented))) return undefined;
  record.proven = ownedBytes(bytes); // kept with the cached record: not a slice of Buffer's shared pool
  return record.key;
}

function sameBytes(expected: Buffer, actual: Buffer): boolean {
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const TOUCH_INTERVAL_MS = 60_000;

/**
 * Records that keys were used, at most once a minute per key and without waiting, so that
 * `keys list` can show it without a write on every request. Best effort: a failed write costs
 * the request nothing (a gateway on a read replica cannot write), but the first failure of a run
 * of them is reported through `warn` (the log by default), and the next success once more.
 */
export function createKeyToucher(
  prisma: () => Promise<PrismaClient>,
  warn: (entry: { msg: string; error?: string }) => void = (entry) => logger.warn(entry),
): (key: VerifiedKey, now?: number) => Promise<void> {
  const lastTouched = new Map<number, number>();
  let failing = false;
  return async (key, now = Date.now()) => {
    if (now - (lastTouched.get(key.keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    lastTouched.set(key.keyId, now);
    try {
      const client = await prisma();
      await client.apiKey.update({ where: { id: key.keyId }, data: { lastUsedAt: new Date(now) } });
      if (failing) warn({ msg: 'API keys\' last_used_at is written again' });
      failing = false;
    } catch (error) {
      if (!failing) warn({ msg: 'API keys\' last_used_at could not be written (keys list shows older times until it can)', error: String((error as Error)?.message ?? error).trim().split('\n').at(-1) });
      failing = true;
    }
  };
}

export interface KeyListing {
  publicId: string;
  account: string;
  hourlyLimit: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export async function listApiKeys(prisma: PrismaClient): Promise<KeyListing[]> {
  const rows = await prisma.apiKey.findMany({
    orderBy: { id: 'asc' },
    select: { publicId: true, hourlyLimit: true, createdAt: true, lastUsedAt: true, revokedAt: true, account: { select: { name: true } } },
  });
  return rows.map(({ account, ...row }) => ({ ...row, account: account.name }));
}

/** Revokes by public id (or by the whole key). Returns false when no such key exists. */
export async function revokeApiKey(prisma: PrismaClient, keyOrPublicId: string): Promise<'revoked' | 'already-revoked' | 'unknown'> {
  const publicId = publicIdOf(keyOrPublicId) ?? keyOrPublicId;
  const row = await prisma.apiKey.findUnique({ where: { publicId }, select: { revokedAt: true } });
  if (!row) return 'unknown';
  if (row.revokedAt) return 'already-revoked';
  await prisma.apiKey.update({ where: { publicId }, data: { revokedAt: new Date() } });
  return 'revoked';
}
