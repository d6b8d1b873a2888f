// The `server:` section of the gateway's entry in .meshrc.yaml: what one client may cost the
// process that serves it. The body limits apply in every serve mode (they are enforced in Yoga,
// which carries /graphql everywhere); the connection settings and the drain apply to the
// node:http front of `npm start`, the only server of ours (`mesh dev` and `mesh start` serve
// with Mesh's own server and Node's defaults).
import { z } from 'zod';

const milliseconds = (min: number, max: number) => z.number().int().min(min).max(max);

export const serverOptions = z
  .object({
    /** Largest request body (POST /graphql) in bytes; larger ones get 413. @default 102400 */
    maxBodyBytes: z.number().int().min(1_024).max(64 * 1024 * 1024).default(100 * 1024),
    /**
     * Request-body bytes held at once by all requests together (from the first byte read to the
     * response); a request that would go over gets 503 with Retry-After. @default 4194304
     */
    maxBodyBytesInFlight: z.number().int().min(1_024).max(1024 * 1024 * 1024).default(4 * 1024 * 1024),
    /** Open connections; more are closed as soon as they are accepted. @default 4096 */
    maxConnections: z.number().int().min(1).max(1_000_000).default(4_096),
    /** Time a client has to send a request's headers (Node's headersTimeout), else 408. @default 10000 */
    headersTimeoutMs: milliseconds(100, 600_000).default(10_000),
    /** Time a client has to send a whole request, headers and body (Node's requestTimeout), else 408. @default 30000 */
    requestTimeoutMs: milliseconds(100, 3_600_000).default(30_000),
    /** An idle keep-alive connection is closed after this (longer than a load balancer's idle timeout). @default 65000 */
    keepAliveTimeoutMs: milliseconds(100, 3_600_000).default(65_000),
    /** On SIGTERM, the longest wait for requests in flight before their connections are cut. @default 10000 */
    drainTimeoutMs: milliseconds(0, 600_000).default(10_000),
  })
  .strict()
  .refine((options) => options.maxBodyBytes <= options.maxBodyBytesInFlight, {
    path: ['maxBodyBytesInFlight'],
    message: 'must be at least maxBodyBytes (one largest body must fit)',
  })
  .refine((options) => options.headersTimeoutMs <= options.requestTimeoutMs, {
    path: ['headersTimeoutMs'],
    message: 'must not exceed requestTimeoutMs (the headers are part of the request)',
  });

export type ServerOptions = z.infer<typeof serverOptions>;

/** The defaults, for a gateway whose entry has no `server:` section. */
export const DEFAULT_SERVER_OPTIONS: ServerOptions = serverOptions.parse({});
