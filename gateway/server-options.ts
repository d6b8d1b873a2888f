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
    /**
     * Tokens the GraphQL parser reads in one document; beyond them it stops, a parse error (400).
     * @default 5000
     */
    maxGraphQLTokens: z.number().int().min(100).max(1_000_000).default(5_000),
    /**
     * How deep brackets may nest in a GraphQL query (selection sets, arguments, lists and
     * objects counted together) and in its variables and extensions (JSON arrays and objects);
     * deeper is refused with 400 before anything parses it. @default 64
     */
    maxGraphQLNesting: z.number().int().min(8).max(1_000).default(64),
    /**
     * Open connections. At the cap, the connection idle the longest is closed to make room; a new
     * connection is closed at once only when none is idle. @default 4096
     */
    maxConnections: z.number().int().min(1).max(1_000_000).default(4_096),
    /**
     * Open connections from one client address (IPv6: one /64), the socket's peer: its next one
     * closes its own longest-idle connection, or is closed at once when none is idle. Behind a
     * load balancer, set it to maxConnections. @default 1024
     */
    maxConnectionsPerAddress: z.number().int().min(1).max(1_000_000).default(1_024),
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
