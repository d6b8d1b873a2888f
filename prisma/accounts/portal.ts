// What the account portal (gateway/plugins/account-portal) keeps in the database: people's
// sign-ins, sessions, invitations, the failed sign-ins that throttle guessing, and each account's
// own keys. Every secret here is stored as a digest: session tokens and invitation codes as
// SHA-256 (they are random, so a fast hash is enough), passwords with scrypt (passwords.ts).
import { hash, randomBytes } from 'node:crypto';
import type { PrismaClient } from '../generated/client.ts';

const digest = (token: string) => hash('sha256', token, 'hex');
const randomToken = () => randomBytes(32).toString('base64url');

/** Emails are compared lowercased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// ---- sessions ----

export interface PortalSession {
  /** The digest that is the row's id (never the token). */
  id: string;
  accountId: number | null;
  csrfToken: string;
  /** A sign-in with OpenID Connect under way (its JSON), or null. */
  oidcFlow: string | null;
  account: { id: number; name: string; email: string | null } | null;
}

/** A new session; the token goes into the cookie and nowhere else. */
export async function createSession(prisma: PrismaClient, accountId: number | null, lifetimeMs: number): Promise<{ token: string; session: PortalSession }> {
  const { token, id, csrfToken } = newSessionToken();
  await prisma.accountSession.create({ data: { id, accountId, csrfToken, expiresAt: new Date(Date.now() + lifetimeMs) } });
  const account = accountId === null ? null : await accountSummary(prisma, accountId);
  return { token, session: { id, accountId, csrfToken, oidcFlow: null, account } };
}

async function accountSummary(prisma: PrismaClient, accountId: number) {
  const row = await prisma.account.findUnique({ where: { id: accountId }, select: { id: true, name: true, login: { select: { email: true } } } });
  return row && { id: row.id, name: row.name, email: row.login?.email ?? null };
}

/** The account a session kept elsewhere (Redis) belongs to; null when it is gone or disabled. */
export async function liveAccount(prisma: PrismaClient, accountId: number): Promise<PortalSession['account']> {
  const row = await prisma.account.findUnique({ where: { id: accountId }, select: { id: true, name: true, disabledAt: true, login: { select: { email: true } } } });
  return row && !row.disabledAt ? { id: row.id, name: row.name, email: row.login?.email ?? null } : null;
}

/** A new session token and the digest that names it wherever sessions are kept. */
export function newSessionToken(): { token: string; id: string; csrfToken: string } {
  const token = randomToken();
  return { token, id: digest(token), csrfToken: randomToken() };
}

/** The digest that names the session of a cookie's token; undefined when the token is not one. */
export function sessionIdOf(token: string): string | undefined {
  return /^[A-Za-z0-9_-]{43}$/.test(token) ? digest(token) : undefined;
}

/** The live session of a cookie's token; null when unknown, expired, or of a disabled account. */
export async function findSession(prisma: PrismaClient, token: string): Promise<PortalSession | null> {
  const id = sessionIdOf(token);
  if (!id) return null;
  const row = await prisma.accountSession.findUnique({
    where: { id },
    select: { id: true, accountId: true, csrfToken: true, oidcFlow: true, expiresAt: true, account: { select: { id: true, name: true, disabledAt: true, login: { select: { email: true } } } } },
  });
  if (!row || row.expiresAt.getTime() <= Date.now()) return null;
  if (row.account?.disabledAt) return null;
  const account = row.account && { id: row.account.id, name: row.account.name, email: row.account.login?.email ?? null };
  return { id: row.id, accountId: row.accountId, csrfToken: row.csrfToken, oidcFlow: row.oidcFlow, account };
}

/** Keeps (or with null, ends) the OpenID Connect sign-in under way in a session. */
export async function setSessionFlow(prisma: PrismaClient, id: string, flow: string | null): Promise<void> {
  await prisma.accountSession.updateMany({ where: { id }, data: { oidcFlow: flow } });
}

export async function deleteSession(prisma: PrismaClient, id: string): Promise<void> {
  await prisma.accountSession.deleteMany({ where: { id } });
}

/** "Sign out everywhere": every session of the account ends. */
export async function deleteAccountSessions(prisma: PrismaClient, accountId: number): Promise<number> {
  return (await prisma.accountSession.deleteMany({ where: { accountId } })).count;
}

export async function deleteExpiredSessions(prisma: PrismaClient): Promise<number> {
  return (await prisma.accountSession.deleteMany({ where: { expiresAt: { lt: new Date() } } })).count;
}

// ---- sign-up and sign-in ----

export type SignUpOutcome = { created: { accountId: number } } | { refused: 'email-taken' | 'invitation' };

/**
 * A new account with its sign-in. With `invitation`, the code must be an unused, unexpired
 * invitation for this very email, and it is used up in the same transaction.
 */
export async function signUp(
  prisma: PrismaClient,
  { email, passwordHash, invitation }: { email: string; passwordHash: string; invitation?: string },
): Promise<SignUpOutcome> {
  const normalized = normalizeEmail(email);
  return prisma.$transaction(async (tx) => {
    if (invitation !== undefined) {
      const used = await tx.accountInvitation.updateMany({
        where: { codeHash: digest(invitation), email: normalized, usedAt: null, expiresAt: { gt: new Date() } },
        data: { usedAt: new Date() },
      });
      if (used.count !== 1) return { refused: 'invitation' as const };
    }
    if (await tx.accountLogin.findUnique({ where: { email: normalized }, select: { accountId: true } })) return { refused: 'email-taken' as const };
    // The account is named by its email; a CLI account of that name already is someone else's.
    const name = (await tx.account.findUnique({ where: { name: normalized }, select: { id: true } })) ? `${normalized}#${randomBytes(3).toString('hex')}` : normalized;
    const account = await tx.account.create({ data: { name, login: { create: { email: normalized, passwordHash } } } });
    return { created: { accountId: account.id } };
  });
}

export type ProviderSignIn = { accountId: number } | { refused: 'disabled' | 'unknown' };

/**
 * The account of an email an identity provider has verified: its own when a sign-in has that
 * email (whichever way it was made), else, when `newAccountHash` is given, a new account with
 * the password hash it makes (one nobody knows: such an account signs in through the provider only).
 */
export async function accountOfVerifiedEmail(prisma: PrismaClient, email: string, newAccountHash: (() => Promise<string>) | undefined): Promise<ProviderSignIn> {
  const login = await findLogin(prisma, email);
  if (login) return login.disabled ? { refused: 'disabled' } : { accountId: login.accountId };
  if (newAccountHash === undefined) return { refused: 'unknown' };
  const outcome = await signUp(prisma, { email, passwordHash: await newAccountHash() });
  // A sign-up of the same email at the same moment won: that account is this email's.
  if ('refused' in outcome) return accountOfVerifiedEmail(prisma, email, undefined);
  return { accountId: outcome.created.accountId };
}

/** What signing in needs to know of an email: null when nobody signs in with it. */
export async function findLogin(prisma: PrismaClient, email: string): Promise<{ accountId: number; passwordHash: string; disabled: boolean } | null> {
  const row = await prisma.accountLogin.findUnique({
    where: { email: normalizeEmail(email) },
    select: { accountId: true, passwordHash: true, account: { select: { disabledAt: true } } },
  });
  return row && { accountId: row.accountId, passwordHash: row.passwordHash, disabled: row.account.disabledAt !== null };
}

// ---- throttling failed sign-ins ----

/** The failures counted for each key in its current window (0 when none, or the window ended). */
export async function signInFailures(prisma: PrismaClient, keys: readonly string[]): Promise<Map<string, { failures: number; windowEndsAt: Date }>> {
  const rows = await prisma.signInFailure.findMany({ where: { key: { in: [...keys] }, windowEndsAt: { gt: new Date() } } });
  return new Map(rows.map((row) => [row.key, { failures: row.failures, windowEndsAt: row.windowEndsAt }]));
}

/** Counts one failure against each key, in one statement: atomic, so gateways count together. */
export async function recordSignInFailure(prisma: PrismaClient, keys: readonly string[], windowSeconds: number): Promise<void> {
  await prisma.$executeRawUnsafe(
    `INSERT INTO sign_in_failures (key, failures, window_ends_at)
     SELECT k, 1, now() + make_interval(secs => $2) FROM unnest($1::text[]) AS k
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN sign_in_failures.window_ends_at <= now() THEN 1 ELSE sign_in_failures.failures + 1 END,
       window_ends_at = CASE WHEN sign_in_failures.window_ends_at <= now() THEN excluded.window_ends_at ELSE sign_in_failures.window_ends_at END`,
    [...keys],
    windowSeconds,
  );
}

export async function clearSignInFailures(prisma: PrismaClient, keys: readonly string[]): Promise<void> {
  await prisma.signInFailure.deleteMany({ where: { key: { in: [...keys] } } });
}

export async function deleteEndedSignInFailures(prisma: PrismaClient): Promise<void> {
  await prisma.signInFailure.deleteMany({ where: { windowEndsAt: { lt: new Date() } } });
}

// ---- invitations and disabling (the CLI's `accounts` commands) ----

/** An invitation for `email`: the code, shown once. */
export async function createInvitation(prisma: PrismaClient, email: string, validDays: number): Promise<{ code: string; expiresAt: Date }> {
  const code = randomToken();
  const expiresAt = new Date(Date.now() + validDays * 86_400_000);
  await prisma.accountInvitation.create({ data: { email: normalizeEmail(email), codeHash: digest(code), expiresAt } });
  return { code, expiresAt };
}

/** Disables an account: its keys are revoked and its sessions end. null when there is no such account. */
export async function disableAccount(prisma: PrismaClient, name: string): Promise<{ revokedKeys: string[] } | null> {
  return prisma.$transaction(async (tx) => {
    const account = await tx.account.findUnique({ where: { name }, select: { id: true } });
    if (!account) return null;
    const now = new Date();
    await tx.account.update({ where: { id: account.id }, data: { disabledAt: now } });
    const active = await tx.apiKey.findMany({ where: { accountId: account.id, revokedAt: null }, select: { publicId: true } });
    await tx.apiKey.updateMany({ where: { accountId: account.id, revokedAt: null }, data: { revokedAt: now } });
    await tx.accountSession.deleteMany({ where: { accountId: account.id } });
    return { revokedKeys: active.map((key) => key.publicId) };
  });
}

export async function enableAccount(prisma: PrismaClient, name: string): Promise<boolean> {
  return (await prisma.account.updateMany({ where: { name }, data: { disabledAt: null } })).count === 1;
}

// ---- an account's own keys ----

export interface AccountKey {
  id: number;
  publicId: string;
  name: string | null;
  hourlyLimit: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The account's keys in use, newest first. */
export async function listAccountKeys(prisma: PrismaClient, accountId: number): Promise<AccountKey[]> {
  return prisma.apiKey.findMany({
    where: { accountId, revokedAt: null },
    orderBy: { id: 'desc' },
    select: { id: true, publicId: true, name: true, hourlyLimit: true, createdAt: true, lastUsedAt: true },
  });
}

/** Revokes one of the account's own keys; false when it has no such key in use. */
export async function revokeAccountKey(prisma: PrismaClient, accountId: number, publicId: string): Promise<boolean> {
  const { count } = await prisma.apiKey.updateMany({ where: { accountId, publicId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count === 1;
}
