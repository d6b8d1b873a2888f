// Keys revoked while gateways keep key records in memory (api-key-auth's keyCacheSeconds): the
// gateway that revokes one (the account portal) tells its own plugins at once, and, when
// REDIS_URL is set, every other gateway too, over Redis pub/sub, so a revoked key stops working
// everywhere at once. The CLI publishes its revocations the same way (publishRevocations). Pub/sub
// delivers only to gateways connected at that moment: one that was cut off from Redis forgets the
// key within keyCacheSeconds, the bound that holds without Redis.
import { Redis } from 'ioredis';
import { logger } from '../lib/logger.ts';
import type { KeyRevocations } from './pipeline/plugin.ts';
import type { SharedResources } from './shared-resources.ts';

/** The channel carrying the public ids of revoked keys. */
export const REVOCATION_CHANNEL = 'icon-catalogue:key-revocations';

const connectionOptions = { connectTimeout: 2_000, maxRetriesPerRequest: 1 } as const;

/** One subscription per process and Redis, kept across config reloads, handing messages to every gateway that listens. */
class RevocationHub {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly listeners = new Set<(publicId: string) => void>();
  private readonly subscribed: Promise<unknown>;

  constructor(url: string) {
    this.publisher = new Redis(url, { ...connectionOptions, connectionName: `icon-catalogue:key-revocations:${process.pid}` });
    this.subscriber = new Redis(url, { ...connectionOptions, connectionName: `icon-catalogue:key-revocations-sub:${process.pid}` });
    // The publisher's outages are reported by the failed publish. The subscriber's would go
    // unnoticed (no message arrives), so it is reported once per outage; ioredis reconnects and
    // subscribes again itself.
    this.publisher.on('error', () => {});
    let subscriberDown = false;
    this.subscriber.on('error', (error: Error) => {
      if (subscriberDown) return;
      subscriberDown = true;
      logger.warn({ msg: `key revocations: not listening on Redis (${error.message}); keys revoked on other gateways are forgotten here within keyCacheSeconds until it is back` });
    });
    this.subscriber.on('ready', () => {
      if (subscriberDown) logger.info({ msg: 'key revocations: listening on Redis again' });
      subscriberDown = false;
    });
    this.subscriber.on('message', (_channel: string, publicId: string) => {
      for (const listener of this.listeners) listener(publicId);
    });
    this.subscribed = this.subscriber.subscribe(REVOCATION_CHANNEL).catch(() => undefined);
  }

  /** Resolves once the subscription is in place (or failed: then within keyCacheSeconds it is). */
  ready(): Promise<unknown> {
    return this.subscribed;
  }

  listen(listener: (publicId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(publicId: string): void {
    this.publisher.publish(REVOCATION_CHANNEL, publicId).catch((error: unknown) => {
      logger.warn({ msg: `key revocations: could not tell the other gateways through Redis (${(error as Error).message}); they forget the key within keyCacheSeconds` });
    });
  }

  close(): void {
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}

/**
 * This gateway's revocations: its own listeners, and, once `connect` was called (at start, not at
 * `mesh build`), every gateway's through Redis when REDIS_URL is set.
 */
export function createKeyRevocations(env: NodeJS.ProcessEnv, keep: SharedResources['keep']): KeyRevocations & { connect(): Promise<unknown>; close(): void } {
  const listeners: ((publicId: string) => void)[] = [];
  const tell = (publicId: string) => {
    for (const listener of listeners) listener(publicId);
  };
  const url = env.REDIS_URL || undefined;
  let hub: RevocationHub | undefined;
  let stopListening: (() => void) | undefined;
  return {
    announce(publicId) {
      tell(publicId);
      hub?.publish(publicId);
    },
    listen: (listener) => void listeners.push(listener),
    connect() {
      if (!url) return Promise.resolve();
      if (!hub) {
        hub = keep('key-revocations', { url }, () => new RevocationHub(url), (kept) => kept.close());
        stopListening = hub.listen(tell);
      }
      return hub.ready();
    },
    close: () => stopListening?.(),
  };
}

/**
 * Tells running gateways that these keys were revoked (the CLI's `keys revoke`, `accounts disable`);
 * nothing without REDIS_URL. Resolves to why it could not, when REDIS_URL is set and Redis failed.
 */
export async function publishRevocations(env: NodeJS.ProcessEnv, publicIds: readonly string[]): Promise<string | undefined> {
  const url = env.REDIS_URL || undefined;
  if (!url || publicIds.length === 0) return undefined;
  const redis = new Redis(url, { ...connectionOptions, lazyConnect: true });
  // Reported once, by the failed connect or publish below.
  redis.on('error', () => {});
  try {
    await redis.connect();
    for (const publicId of publicIds) await redis.publish(REVOCATION_CHANNEL, publicId);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    redis.disconnect();
  }
}
