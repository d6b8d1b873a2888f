// The machine's Redis for tests (TEST_REDIS_URL, default redis://127.0.0.1:6379). Under
// CI=true an unreachable Redis fails the suite; elsewhere the Redis cases skip with a reason.
import { Redis } from 'ioredis';
import { serviceCheck } from './services.ts';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** undefined when Redis can be used, otherwise the reason it cannot. */
export const redisUnavailable = serviceCheck('Redis', REDIS_URL, async () => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
});
