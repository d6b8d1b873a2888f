// One gateway's pipeline: the stages of its plugins, by phase (PHASES) and, within a phase, in
// the order .meshrc.yaml lists the plugins. Whichever server carries a request (the node:http
// front, or Yoga under `mesh dev` / `mesh start`) runs it here, so both answer alike.
import { whenReady, type MaybePromise } from '../../lib/maybe-promise.ts';
import type { Exchange, GatewayResponse } from './exchange.ts';
import { PHASES, type ErrorShaper, type GatewayPlugin, type Stage } from './plugin.ts';

export class Pipeline {
  private readonly stages: Stage[];
  private readonly startStages: Stage[];
  private readonly completions: ((exchange: Exchange, status: number) => void)[];

  constructor(
    plugins: readonly GatewayPlugin[],
    private readonly errors: ErrorShaper,
  ) {
    this.stages = PHASES.flatMap((phase) => plugins.flatMap((plugin) => plugin.stages?.[phase] ?? []));
    this.startStages = plugins.flatMap((plugin) => plugin.stages?.start ?? []);
    this.completions = plugins.flatMap((plugin) => (plugin.onComplete ? [plugin.onComplete] : []));
  }

  /**
   * The response, with the exchange's headers on it; undefined to go on to GraphQL. Stages that
   * answer synchronously (most of them, on the hot path) are followed without a promise.
   */
  run(exchange: Exchange): MaybePromise<GatewayResponse | undefined> {
    return this.runFrom(0, exchange);
  }

  /**
   * A loop rather than one whenReady per stage: most stages answer synchronously, and a
   * continuation per stage was three closures each on every cached response (bench/RESULTS.md).
   */
  private runFrom(first: number, exchange: Exchange): MaybePromise<GatewayResponse | undefined> {
    for (let index = first; index < this.stages.length; index++) {
      let outcome: MaybePromise<GatewayResponse | undefined>;
      try {
        outcome = this.stages[index]!(exchange);
      } catch (error) {
        return this.fail(error, exchange);
      }
      if (outcome instanceof Promise) {
        const next = index + 1;
        return whenReady(
          () => outcome,
          (response) => (response ? this.finish(response, exchange) : this.runFrom(next, exchange)),
          (error: unknown) => this.fail(error, exchange),
        );
      }
      if (outcome) return this.finish(outcome, exchange);
    }
    return undefined;
  }

  /**
   * The headers every response carries (what the start phase sets: the request id, the limit),
   * for answers made outside the pipeline: the front's answers to requests Node could not parse.
   */
  commonHeaders(exchange: Exchange): Record<string, string> {
    // Start stages only set headers; they are not awaited here (the answer is the front's own).
    // One that fails is a bug: logged as an unexpected error with the request id, as in `run`,
    // and the headers set so far are still sent.
    const report = (error: unknown) => void this.errors.unexpected(error, exchange);
    for (const stage of this.startStages) {
      try {
        const outcome = stage(exchange);
        if (outcome instanceof Promise) outcome.catch(report);
      } catch (error) {
        report(error);
      }
    }
    return exchange.responseHeaders;
  }

  /** The shaped response to an error nobody expected, with the exchange's headers. */
  fail(error: unknown, exchange: Exchange): GatewayResponse {
    return this.finish(this.errors.unexpected(error, exchange), exchange);
  }

  /** `answer` shaped for the exchange's destination (an error on /graphql as GraphQL), with the exchange's headers. */
  finish(answer: GatewayResponse, exchange: Exchange): GatewayResponse {
    const response = answer.error ? this.errors.forDestination(answer, exchange) : answer;
    Object.assign(response.headers, exchange.responseHeaders);
    return response;
  }

  /**
   * Tells the plugins (metrics, access log) that the request ended with `status`. The server
   * that made the exchange calls it, once.
   */
  complete(exchange: Exchange, status: number): void {
    for (const onComplete of this.completions) onComplete(exchange, status);
  }
}
