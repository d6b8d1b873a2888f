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
