// The machine's Redis for tests (TEST_REDIS_URL, default redis://127.0.0.1:6379). Under
// CI=true an unreachable Redis fails the suite; elsewhere the Redis cases skip with a reason.
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let reachable: Promise<string | undefined> | undefined;

export function redisUnavailable(): Promise<string | undefined> {
  reachable ??= (async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    try {
      await redis.connect();
      await redis.ping();
      return undefined;
    } catch (error) {
      const reason = `Redis at ${REDIS_URL} unreachable: ${(error as Error).message}`;
      if (process.env.CI === 'true') throw new Error(`${reason} (required under CI=true)`);
      console.warn(`skipping Redis tests: ${reason}`);
      return reason;
    } finally {
      redis.disconnect();
    }
  })();
  return reachable;
}
