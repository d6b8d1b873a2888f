// Where the portal keeps its sessions: PostgreSQL (account_sessions, the default) or Redis
// (`sessions.store: redis`, REDIS_URL), behind one interface. Either way only the token's
// SHA-256 digest is stored, and a session of an account that was disabled is not found. In Redis
// a session is one key that expires with the session (no cleanup to run), and each account has
// a set naming its sessions, which is what "End all sessions" deletes.
import { Redis } from 'ioredis';
import { ConfigError } from '../../../lib/config-validation.ts';
import {
  createSession,
  deleteAccountSessions,
  deleteExpiredSessions,
  deleteSession,
  findSession,
  liveAccount,
  newSessionToken,
  type PortalSession,
  sessionIdOf,
  setSessionFlow,
} from '../../../prisma/accounts/portal.ts';
import type { PrismaClient } from '../../../prisma/generated/client.ts';
import type { GatewayServices } from '../../pipeline/plugin.ts';

export interface SessionStore {
  /** A new session; the token goes into the cookie and nowhere else. */
  create(accountId: number | null, lifetimeMs: number): Promise<{ token: string; session: PortalSession }>;
  /** The live session of a cookie's token; null when unknown, expired, or of a disabled account. */
  find(token: string): Promise<PortalSession | null>;
  /** Keeps (or with null, ends) the OpenID Connect sign-in under way in a session. */
  setFlow(id: string, flow: string | null): Promise<void>;
  delete(id: string): Promise<void>;
  /** "Sign out everywhere": every session of the account ends. */
  deleteAccount(accountId: number): Promise<void>;
  /** Deletes the expired sessions, where they do not expire by themselves. */
  deleteExpired(): Promise<void>;
}

export function postgresSessions(prisma: () => Promise<PrismaClient>): SessionStore {
  return {
    create: async (accountId, lifetimeMs) => createSession(await prisma(), accountId, lifetimeMs),
    find: async (token) => findSession(await prisma(), token),
    setFlow: async (id, flow) => setSessionFlow(await prisma(), id, flow),
    delete: async (id) => deleteSession(await prisma(), id),
    deleteAccount: async (accountId) => void (await deleteAccountSessions(await prisma(), accountId)),
    deleteExpired: async () => void (await deleteExpiredSessions(await prisma())),
  };
}

/** What a session key holds in Redis. */
interface StoredSession {
  accountId: number | null;
  csrfToken: string;
  oidcFlow: string | null;
}

export const REDIS_SESSION_PREFIX = 'icon-catalogue:portal:';

/**
 * Sessions in the Redis of REDIS_URL, on a connection kept across config reloads
 * (services.keep). `prisma` still answers whose account a session is, and whether it is disabled.
 */
export function redisSessions(prisma: () => Promise<PrismaClient>, services: Pick<GatewayServices, 'env' | 'keep'>, where: string, prefix = REDIS_SESSION_PREFIX): SessionStore {
  const url = services.env.REDIS_URL || undefined;
  if (!url) throw new ConfigError(`${where}.sessions.store is "redis" but REDIS_URL is not set`);
  const redis = services.keep(
    'account-portal:sessions-redis',
    { url },
    () => {
      const connection = new Redis(url, { connectTimeout: 2_000, maxRetriesPerRequest: 1, connectionName: `icon-catalogue:account-portal:${process.pid}` });
      // Failures reach the requests that needed Redis (500 there); the event alone would be printed as unhandled.
      connection.on('error', () => {});
      return connection;
    },
    (connection) => connection.quit().catch(() => connection.disconnect()),
  );
  const sessionKey = (id: string) => `${prefix}session:${id}`;
  const accountKey = (accountId: number) => `${prefix}account-sessions:${accountId}`;

  async function find(token: string): Promise<PortalSession | null> {
    const id = sessionIdOf(token);
    if (!id) return null;
    const text = await redis.get(sessionKey(id));
    if (!text) return null;
    const stored = JSON.parse(text) as StoredSession;
    if (stored.accountId === null) return { id, accountId: null, csrfToken: stored.csrfToken, oidcFlow: stored.oidcFlow, account: null };
    const account = await liveAccount(await prisma(), stored.accountId);
    return account && { id, accountId: stored.accountId, csrfToken: stored.csrfToken, oidcFlow: stored.oidcFlow, account };
  }

  return {
    async create(accountId, lifetimeMs) {
      const { token, id, csrfToken } = newSessionToken();
      const stored: StoredSession = { accountId, csrfToken, oidcFlow: null };
      const write = redis.multi().set(sessionKey(id), JSON.stringify(stored), 'PX', lifetimeMs);
      // Every signed-in session lasts sessionHours: the set of an account's sessions lives as long as its newest.
      if (accountId !== null) write.sadd(accountKey(accountId), id).pexpire(accountKey(accountId), lifetimeMs);
      await write.exec();
      const account = accountId === null ? null : await liveAccount(await prisma(), accountId);
      return { token, session: { id, accountId, csrfToken, oidcFlow: null, account } };
    },
    find,
    async setFlow(id, flow) {
      const text = await redis.get(sessionKey(id));
      if (!text) return;
      const stored = JSON.parse(text) as StoredSession;
      await redis.set(sessionKey(id), JSON.stringify({ ...stored, oidcFlow: flow }), 'KEEPTTL', 'XX');
    },
    async delete(id) {
      const text = await redis.getdel(sessionKey(id));
      const accountId = text ? (JSON.parse(text) as StoredSession).accountId : null;
      if (accountId !== null) await redis.srem(accountKey(accountId), id);
    },
    async deleteAccount(accountId) {
      const ids = await redis.smembers(accountKey(accountId));
      await redis.del(accountKey(accountId), ...ids.map(sessionKey));
    },
    async deleteExpired() {},
  };
}
