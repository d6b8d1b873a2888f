// Requests per API key and UTC hour, counted after each response (a map increment) and sent to
// the database as one batch every flushSeconds (prisma/accounts/key-usage.ts: exact across
// gateways, a resent batch applied once). A batch that fails stays the batch, with its id,
// until it is applied; key-hours held at once are bounded, so an unreachable database cannot
// make the process grow without end. Requests never wait for or fail with a batch.
import { randomUUID } from 'node:crypto';
import { logger } from '../../../lib/logger.ts';
import { applyKeyUsageBatch, expireKeyUsage, hourOf, type KeyUsageBatch } from '../../../prisma/accounts/key-usage.ts';
import type { PrismaClient } from '../../../prisma/generated/client.ts';

const log = logger.child({ plugin: 'account-portal' });
const EXPIRY_INTERVAL_MS = 3_600_000;

export interface UsageRecorder {
  count(keyId: number, now?: number): void;
  /** Requests of a key in the current hour counted here and not yet applied. */
  pending(keyId: number, now?: number): number;
  /**
   * Runs `read` (which reads the written usage, then `pending`) with no batch being written
   * meanwhile, so that a request is counted once: in the database or pending, never both.
   */
  quietly<T>(read: () => Promise<T>): Promise<T>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createUsageRecorder({
  prisma,
  flushSeconds,
  keepDays,
  maxPending,
}: {
  prisma: () => Promise<PrismaClient>;
  flushSeconds: number;
  keepDays: number;
  maxPending: number;
}): UsageRecorder {
  let gathering = new Map<string, number>();
  let unapplied: { batch: KeyUsageBatch; counts: Map<string, number> } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let failing = false;
  let nextExpiry = 0;
  let readers = 0;
  const keyOf = (keyId: number, hour: number) => `${keyId}:${hour}`;

  function schedule(): void {
    timer ??= setTimeout(tick, flushSeconds * 1000).unref();
  }

  function tick(): void {
    timer = undefined;
    if (readers > 0) {
      schedule();
      return;
    }
    flushing ??= flush().finally(() => {
      flushing = undefined;
      if (gathering.size > 0 || unapplied) schedule();
    });
  }

  async function flush(): Promise<void> {
    if (!unapplied && gathering.size > 0) {
      const entries = [...gathering].map(([key, count]) => {
        const [keyId, hour] = key.split(':').map(Number) as [number, number];
        return { keyId, hour, count };
      });
      unapplied = { batch: { id: randomUUID(), entries }, counts: gathering };
      gathering = new Map();
    }
    try {
      const client = await prisma();
      if (unapplied) {
        await applyKeyUsageBatch(client, unapplied.batch);
        unapplied = undefined;
      }
      if (failing) log.info({ msg: 'key usage is written again' });
      failing = false;
      if (Date.now() >= nextExpiry) {
        nextExpiry = Date.now() + EXPIRY_INTERVAL_MS;
        await expireKeyUsage(client, keepDays);
      }
    } catch (error) {
      if (!failing) log.warn({ msg: 'key usage could not be written; it is kept and resent', error: String((error as Error)?.message ?? error).split('\n').at(-1) });
      failing = true;
    }
  }

  return {
    count(keyId, now = Date.now()) {
      const key = keyOf(keyId, hourOf(now));
      const count = gathering.get(key);
      if (count === undefined && gathering.size >= maxPending) return;
      gathering.set(key, (count ?? 0) + 1);
      schedule();
    },
    pending(keyId, now = Date.now()) {
      const key = keyOf(keyId, hourOf(now));
      return (gathering.get(key) ?? 0) + (unapplied?.counts.get(key) ?? 0);
    },
    async quietly(read) {
      readers++;
      try {
        await flushing;
        return await read();
      } finally {
        readers--;
      }
    },
    async flush() {
      await flushing;
      await flush();
    },
    async close() {
      clearTimeout(timer);
      timer = undefined;
      await flushing;
      for (let attempt = 0; attempt < 3 && (gathering.size > 0 || unapplied); attempt++) await flush();
    },
  };
}
