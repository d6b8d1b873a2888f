// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      headers?: Record<string, string>;
      /** Seconds to wait for a response before counting a timeout. */
      timeout?: number;
      title?: string;
      /** Requests sent in turn by each connection (instead of `url`'s path every time). */
      requests?: Request[];
      /** Called with each connection's client once it is created. */
      setupClient?: (client: Client) => void;
    }

    interface Client {
      /** Replaces the requests this connection sends in turn. */
      setRequests(requests: Request[]): void;
    }

    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
    }

    interface Request extends RequestParams {
      /** Called before each request is built; returns the request to send. */
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
      /** Called with every response: status, body, context, and headers (lowercased names). */
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      title?: string;
      url: string;
      requests: Histogram & { sent: number };
      latency: Histogram;
      throughput: Histogram;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      /** Every response: (client, status code, response bytes, response time in ms, fractional). */
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
