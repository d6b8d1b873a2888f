// Probes for load balancers and orchestrators, answered by the front without a key:
//   /healthz  the process is up and serving (no dependency is touched)
//   /readyz   the database and (when configured) Redis answer within a second; 503 otherwise,
//             so a balancer stops sending traffic to an instance that cannot serve it.
import type { Database } from '../prisma/database.ts';
import type { GatewayResponse } from './pipeline/exchange.ts';
import { jsonResponse } from './pipeline/pipeline.ts';
import type { RateLimitStore } from './rate-limit/store.ts';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
const CHECK_TIMEOUT_MS = 1_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const noStore = { 'cache-control': 'no-store' };

export function healthResponse(): GatewayResponse {
  return jsonResponse(200, JSON.stringify({ status: 'ok' }), noStore);
}

export async function readinessResponse(db: Database, store: RateLimitStore | undefined): Promise<GatewayResponse> {
  const checks: Record<string, string> = {};
  const probes: Promise<void>[] = [
    withTimeout(db.prisma.$queryRawUnsafe('SELECT 1'), CHECK_TIMEOUT_MS).then(
      () => void (checks.database = 'ok'),
      () => void (checks.database = 'unreachable'),
    ),
  ];
  if (store && store.name !== 'memory') {
    probes.push(
      withTimeout(store.ping(), CHECK_TIMEOUT_MS).then(
        (ok) => void (checks[store.name] = ok ? 'ok' : 'unreachable'),
        () => void (checks[store.name] = 'unreachable'),
      ),
    );
  }
  await Promise.all(probes);
  const ready = Object.values(checks).every((state) => state === 'ok');
  return jsonResponse(ready ? 200 : 503, JSON.stringify({ status: ready ? 'ready' : 'unavailable', checks }), noStore);
}
