// Counters in Redis (one server, or a Redis Cluster), shared by every gateway process and host
// that uses it: exact across all of them, because one Lua script counts and sets the expiry in
// one round trip (never read-then-write). The window is Redis's own: the script reads Redis's
// clock (TIME) and sets the counter's expiry from it, so gateways whose clocks disagree with
// Redis or with each other still share one window and one expiry (with the gateway's clock, a gateway behind Redis across the hour set an
// expiry already past and counted every request as the first).
//
// Hits of one key asked for in the same turn of the event loop (a client's concurrent requests,
// a page loading its icons' files from one address) are one script call that adds them all: the
// i-th of n gets the count before them plus i, as n calls in a row would give, and the turn's
// calls for all keys are one pipeline written at the turn's end, as ioredis's auto-pipelining
// wrote them before. A Redis Cluster's calls are not gathered (a pipeline must stay in one slot).
//
// Waiting: a command fails once Redis has been silent for commandTimeoutMs while it waited
// (deadline.ts: never for the gateway's own busy loop or the commands queued ahead of it). A
// failure other than an error reply marks Redis down (breaker.ts): requests then fail at once,
// without waiting, while a probe runs in the background until Redis answers again. The limiter
// decides whether a failed count lets the request through (fail open) or refuses it.
import { Cluster, Redis, ReplyError, type RedisOptions } from 'ioredis';
import { Breaker } from './breaker.ts';
import { DeadlineError, ReplyDeadline } from './deadline.ts';
import { windowOf, type RateLimitStore, type WindowCount } from './store.ts';

/**
 * KEYS[1]: the caller's counter; ARGV[1]: the window length (ms); ARGV[2]: how many hits to add
 * (1 if absent). The counter expires at the end of the window Redis's clock is in when it is
 * created, so it only ever holds one window's count. Returns the count after the hits and Redis's
 * time (ms), from which the window is computed.
 * (Effects replication, the default since Redis 5, lets TIME precede writes.)
 */
const HIT_SCRIPT = `
local hits = tonumber(ARGV[2]) or 1
local count = redis.call('INCRBY', KEYS[1], hits)
local time = redis.call('TIME')
local now = time[1] * 1000 + math.floor(time[2] / 1000)
if count == hits then
  local window = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], window - now % window)
end
return {count, now}`;

/** A Redis Cluster's shards answer independently: one command waits at most this many deadlines. */
const CLUSTER_WAIT_DEADLINES = 3;

export interface RedisStoreOptions {
  /** One Redis: redis://[user:password@]host:port[/db]. */
  url?: string;
  /**
   * A Redis Cluster instead: some of its nodes (parseClusterNodes); ioredis finds the rest. The
   * one script touches one key, so every call lands on one shard.
   */
  clusterNodes?: ClusterNode[];
  /** Prefix of every key this store writes. @default "icon-catalogue:ratelimit:" */
  keyPrefix?: string;
  /** How long Redis may stay silent while a command waits, in ms. @default 200 */
  commandTimeoutMs?: number;
  /** How often to probe Redis while it is down, in ms. @default 1000 */
  probeEveryMs?: number;
  /** Redis became unreachable (once per outage). */
  onDown?(reason: string): void;
  /** Redis answers again after `downForMs`. */
  onUp?(downForMs: number): void;
  /** What Redis's CLIENT LIST calls the connection (which process and plugin it serves). */
  connectionName?: string;
}

type HitReply = [count: number, now: number];
type WithHit<T> = T & { rateLimitHit(key: string, windowMs: string, hits?: string): Promise<HitReply> };
type Client = WithHit<Redis> | WithHit<Cluster>;
type HitPipeline = ReturnType<Redis['pipeline']> & { rateLimitHit(key: string, windowMs: string, hits: string): HitPipeline };

/** The hits of one counter and window length asked for during one turn of the event loop. */
class GatheredHits {
  /** How many; the n-th hit is `count - hits + n` of the reply. */
  hits = 0;
  readonly reply: Promise<HitReply>;
  settle!: (reply: Promise<HitReply>) => void;

  constructor(
    readonly key: string,
    readonly windowMs: number,
  ) {
    this.reply = new Promise<HitReply>((resolve) => {
      this.settle = resolve;
    });
  }
}

export interface ClusterNode {
  host: string;
  port: number;
  password?: string;
  username?: string;
  /** rediss:// */
  tls?: boolean;
}

/**
 * Node addresses of REDIS_CLUSTER_NODES: "host:port", redis:// or rediss:// URLs, comma-
 * separated. Errors name the entry by position only: an entry may hold a password.
 */
export function parseClusterNodes(text: string): ClusterNode[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry, index) => {
      const url = URL.parse(entry.includes('://') ? entry : `redis://${entry}`);
      const port = Number(url?.port || 6379);
      if (!url?.hostname || !Number.isInteger(port) || !['redis:', 'rediss:'].includes(url.protocol)) {
        throw new Error(`entry ${index + 1} is not host:port or a redis:// or rediss:// URL`);
      }
      return {
        host: url.hostname,
        port,
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
        ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
        ...(url.protocol === 'rediss:' ? { tls: true } : {}),
      };
    });
}

/** Where a counter stands at `count`, at Redis's time `now`. */
function counted(count: number, now: number, windowMs: number): WindowCount {
  const { end } = windowOf(now, windowMs);
  return { count, resetAt: end, resetsIn: end - now };
}

/** Redis is known to be down: the request did not wait for it. */
export class StoreDownError extends Error {
  override name = 'StoreDownError';
}

export class RedisStore implements RateLimitStore {
  readonly name = 'redis';
  private readonly redis: Client;
  private readonly keyPrefix: string;
  private readonly commandTimeoutMs: number;
  private readonly deadline: ReplyDeadline;
  private readonly breaker: Breaker;
  /** This turn's hits, by window length and counter; sent at the turn's end (sendGathered). */
  private readonly gathered = new Map<string, GatheredHits>();

  constructor({ url, clusterNodes, keyPrefix = 'icon-catalogue:ratelimit:', commandTimeoutMs = 200, probeEveryMs, onDown = () => {}, onUp = () => {}, connectionName }: RedisStoreOptions) {
    const options: RedisOptions = {
      // No commandTimeout: ioredis times a command from its write, in a timer that runs before
      // replies are read; deadline.ts does the waiting, and a stalled connection is replaced by
      // the breaker's probe (which frees the commands it held).
      connectTimeout: 2_000,
      enableOfflineQueue: false,
      // Commands issued in the same tick go out as one write: under load, one syscall for many requests.
      enableAutoPipelining: true,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      ...(connectionName && { connectionName }),
    };
    if (clusterNodes?.length) {
      const { password, username } = clusterNodes[0]!;
      const tls = clusterNodes.some((node) => node.tls);
      this.redis = new Cluster(
        clusterNodes.map(({ host, port }) => ({ host, port })),
        {
          enableOfflineQueue: false,
          enableAutoPipelining: true,
          lazyConnect: true,
          clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
          redisOptions: { ...options, ...(password ? { password } : {}), ...(username ? { username } : {}), ...(tls ? { tls: {} } : {}) },
        },
      ) as WithHit<Cluster>;
    } else if (url) {
      this.redis = new Redis(url, options) as WithHit<Redis>;
    } else {
      throw new Error('RedisStore needs a url or clusterNodes');
    }
    // Connection errors are reported through failed commands and the breaker; without a
    // listener ioredis would print every reconnection attempt as an unhandled error event.
    this.redis.on('error', () => {});
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.keyPrefix = keyPrefix;
    this.commandTimeoutMs = commandTimeoutMs;
    this.breaker = new Breaker({ probe: () => this.probe(), probeEveryMs, onDown, onUp });
    this.deadline = new ReplyDeadline({
      ms: commandTimeoutMs,
      maxMs: clusterNodes?.length ? commandTimeoutMs * CLUSTER_WAIT_DEADLINES : undefined,
      // Redis's own error replies (a script error, OOM, READONLY) fail that request only.
      isReply: (error) => error instanceof ReplyError,
      onFailure: (error) => this.breaker.trip((error as Error).message),
    });
    // A new connection may have healed an outage: probe it now rather than at the next interval.
    this.redis.on('ready', () => this.breaker.probeSoon());
  }

  /** Whether Redis is known to be down (requests then do not wait for it). */
  get isDown(): boolean {
    return this.breaker.isDown;
  }

  /**
   * Connects, waiting at most `timeoutMs`. Commands are not queued while disconnected (so they
   * fail fast), so a server should call this before serving; it resolves false when Redis is
   * not there yet (Redis then counts as down), and the client keeps reconnecting in the background.
   */
  async connect(timeoutMs = 2_000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    if (this.redis.status === 'wait') this.redis.connect().catch(() => {});
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const onReady = () => done(true);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ok);
      };
      this.redis.on('ready', onReady);
    });
    if (!ready) this.breaker.trip(`not connected within ${timeoutMs} ms`);
    return ready;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    // First use without connect(): connect, waiting no longer than one command may.
    if (this.redis.status === 'wait') await this.connect(this.commandTimeoutMs);
    const counter = `${this.keyPrefix}${key}`;
    if (this.redis instanceof Cluster) {
      const [count, now] = await this.ask(() => this.redis.rateLimitHit(counter, String(windowMs)));
      return counted(count, now, windowMs);
    }
    // Known down: refused now, not a turn later with the turn's other hits.
    const down = this.downError();
    if (down) throw down;
    const id = `${windowMs} ${counter}`;
    let hits = this.gathered.get(id);
    if (!hits) {
      if (this.gathered.size === 0) setImmediate(() => this.sendGathered());
      hits = new GatheredHits(counter, windowMs);
      this.gathered.set(id, hits);
    }
    const nth = ++hits.hits;
    const [count, now] = await hits.reply;
    return counted(count - (hits.hits - nth), now, windowMs);
  }

  /** This turn's hits, one script call per counter, written now as one pipeline. */
  private sendGathered(): void {
    const all = [...this.gathered.values()];
    this.gathered.clear();
    const pipeline = (this.redis as Redis).pipeline() as HitPipeline;
    for (const { key, windowMs, hits } of all) pipeline.rateLimitHit(key, String(windowMs), String(hits));
    // A pipeline resolves with each command's error beside the others' replies: one that is not
    // Redis's own error reply (the connection lost) fails the whole of it, as deadline.ts expects.
    const replies = this.ask(async () => {
      const results = (await pipeline.exec()) ?? [];
      const lost = results.find(([error]) => error && !(error instanceof ReplyError));
      if (lost) throw lost[0];
      return results;
    });
    for (const [i, hits] of all.entries()) {
      hits.settle(
        replies.then((results) => {
          const [error, reply] = results[i] ?? [new Error('Redis sent no reply for a rate-limit count')];
          if (error) throw error;
          return reply as HitReply;
        }),
      );
    }
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.ask(() => this.redis.ping())) === 'PONG';
    } catch {
      // The readiness probe asks yes or no; it reports a "no" itself (503 with the check named).
      return false;
    }
  }

  async close(): Promise<void> {
    this.breaker.close();
    this.redis.disconnect();
  }

  /**
   * A command's reply, waited for as deadline.ts says (a failure that is not Redis's own error
   * reply marks Redis down); at once a StoreDownError while Redis is known to be down.
   */
  private ask<T>(command: () => Promise<T>): Promise<T> {
    const down = this.downError();
    return down ? Promise.reject(down) : this.deadline.within(command());
  }

  /** What a request gets at once while Redis is known to be down; undefined while it is not. */
  private downError(): StoreDownError | undefined {
    return this.breaker.isDown ? new StoreDownError(`Redis is down (${this.breaker.downReason})`) : undefined;
  }

  /**
   * While Redis is down: it answers a count (every node of a cluster a PING, and the shard of the
   * probe key the script). A connection that stays silent is replaced, which frees the commands
   * it held; one that is reconnecting is left to ioredis.
   */
  private async probe(): Promise<void> {
    if (this.redis.status !== 'ready') throw new Error(`Redis connection ${this.redis.status}`);
    const nodes = this.redis instanceof Cluster ? this.redis.nodes('master') : [];
    try {
      await Promise.all([
        this.deadline.within(this.redis.rateLimitHit(`${this.keyPrefix}probe`, '60000')),
        ...nodes.map((node) => this.deadline.within(node.ping())),
      ]);
    } catch (error) {
      if (error instanceof DeadlineError) this.redis.disconnect(true);
      throw error;
    }
  }
}
