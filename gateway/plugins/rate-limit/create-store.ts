// The counter store a plugin's options ask for in this environment (memory, one Redis, or a Redis
// Cluster), with Redis's outages reported once each way: a warning when it goes down, another
// when it answers again, and the icon_gateway_redis_up gauge. Used by rate-limit and by
// auth-throttle, each with its own keys.
import { ConfigError } from '../../../lib/config-validation.ts';
import { logger } from '../../../lib/logger.ts';
import type { GatewayServices } from '../../pipeline/plugin.ts';
import { MemoryStore } from './memory-store.ts';
import { parseClusterNodes, RedisStore } from './redis-store.ts';
import type { RateLimitStore } from './store.ts';

export interface StoreChoice {
  /** memory: this process only; redis: REDIS_URL or REDIS_CLUSTER_NODES; auto: redis when either is set. */
  store: 'auto' | 'memory' | 'redis';
  /** How long Redis may stay silent while a request waits for it, in ms. */
  redisTimeoutMs: number;
}

export interface StoreUse {
  /** The plugin that counts (logs and the gauge name it). */
  plugin: string;
  /** Where its options are in .meshrc.yaml, for errors. */
  where: string;
  keyPrefix: string;
  services: Pick<GatewayServices, 'env' | 'metrics' | 'keep'>;
  /** How often to probe Redis while it is down. @default 1000 */
  probeEveryMs?: number;
}

/**
 * The store `choice` asks for; a ConfigError when the environment cannot provide it. Kept across
 * config reloads (services.keep) while what it is made from stays the same: the counts of the
 * memory store, and the Redis connection, outlive the gateway that made them.
 */
export function createCounterStore(choice: StoreChoice, { plugin, where, keyPrefix, services, probeEveryMs }: StoreUse): RateLimitStore {
  const redisUrl = services.env.REDIS_URL || undefined;
  const clusterText = services.env.REDIS_CLUSTER_NODES || undefined;
  const kind = choice.store === 'auto' ? (redisUrl || clusterText ? 'redis' : 'memory') : choice.store;
  const close = (store: RateLimitStore) => store.close();
  if (kind === 'memory') return services.keep(`counter-store:${keyPrefix}`, { kind }, () => new MemoryStore(), close);
  if (!redisUrl && !clusterText) throw new ConfigError(`${where}.store is "redis" but neither REDIS_URL nor REDIS_CLUSTER_NODES is set`);
  if (redisUrl && clusterText) throw new ConfigError('set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  let clusterNodes: ReturnType<typeof parseClusterNodes> | undefined;
  try {
    clusterNodes = clusterText === undefined ? undefined : parseClusterNodes(clusterText);
  } catch (error) {
    throw new ConfigError(`REDIS_CLUSTER_NODES: ${(error as Error).message}`);
  }
  const settings = { kind, redisUrl, clusterNodes, commandTimeoutMs: choice.redisTimeoutMs, probeEveryMs };
  return services.keep(`counter-store:${keyPrefix}`, settings, () => redisStore(), close);

  function redisStore(): RateLimitStore {
    services.metrics.redisState(plugin, true);
    return new RedisStore({
      url: redisUrl,
      clusterNodes,
      keyPrefix,
      commandTimeoutMs: choice.redisTimeoutMs,
      probeEveryMs,
      // CLIENT LIST then tells which process and plugin holds a connection (and that a reload kept it).
      connectionName: `icon-catalogue:${plugin}:${process.pid}`,
      onDown(reason) {
        services.metrics.redisState(plugin, false);
        logger.warn({ msg: `${plugin}: Redis is down (${reason}); requests no longer wait for it, probing every ${((probeEveryMs ?? 1_000) / 1000).toFixed(1)} s`, plugin });
      },
      onUp(downForMs) {
        services.metrics.redisState(plugin, true);
        logger.warn({ msg: `${plugin}: Redis answers again, after ${(downForMs / 1000).toFixed(1)} s down`, plugin, downForMs: Math.round(downForMs) });
      },
    });
  }
}
