// Probes for load balancers and orchestrators, answered without a key:
//   health  the process is up and serving (no dependency is touched)
//   ready   the database and every plugin's dependency (Redis, when configured) answer within
//           a second; 503 otherwise, so a balancer stops sending traffic to an instance that
//           cannot serve it; 503 `{"status":"draining"}` once the server is stopping.
import type { GatewayResponse } from '../../pipeline/exchange.ts';
import { jsonResponse } from '../../pipeline/responses.ts';

const CHECK_TIMEOUT_MS = 1_000;
const noStore = { 'cache-control': 'no-store' };

/** `work`'s answer, or false when it fails or takes longer than `ms`. */
function answersWithin(work: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([work.catch(() => false), late]).finally(() => clearTimeout(timer));
}

export function healthResponse(): GatewayResponse {
  return jsonResponse(200, JSON.stringify({ status: 'ok' }), noStore);
}

/** `checks`: each dependency by name, with how to ask it whether it answers. */
export async function readinessResponse(checks: Record<string, () => Promise<boolean>>): Promise<GatewayResponse> {
  const states = Object.fromEntries(
    await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, (await answersWithin(check(), CHECK_TIMEOUT_MS)) ? 'ok' : 'unreachable'] as const)),
  );
  const ready = Object.values(states).every((state) => state === 'ok');
  return jsonResponse(ready ? 200 : 503, JSON.stringify({ status: ready ? 'ready' : 'unavailable', checks: states }), noStore);
}

/** The server is stopping (SIGTERM): take it out of rotation, whatever its dependencies say. */
export function drainingResponse(): GatewayResponse {
  return jsonResponse(503, JSON.stringify({ status: 'draining' }), noStore);
}
