// The gateway pipeline: the stages our plugins register, run in a fixed order of phases for
// every request, whichever server carries it. A stage either answers (the request ends there)
// or lets the request go on; a request that no stage answers goes on to GraphQL (/graphql).
//   start   headers every response carries
//   route   which REST route, /graphql or the OpenAPI document; 404 and 405 otherwise
//   auth    who is calling; 401
//   limit   rate limits and their headers; 429
//   handle  runs the REST route's operation; 200, 304, 400, 403, 404
// Plugins are built by Mesh from .meshrc.yaml (twice under `mesh start`), so registering a
// stage replaces the one of the same name instead of adding a second.
import type { Exchange, GatewayResponse } from './exchange.ts';
import { errorBody } from '../http/error-body.ts';
import { processSingleton } from '../../lib/process-singleton.ts';
import { logger } from '../../lib/logger.ts';

export const PHASES = ['start', 'route', 'auth', 'limit', 'handle'] as const;
export type Phase = (typeof PHASES)[number];

export type Stage = (exchange: Exchange) => Promise<GatewayResponse | undefined> | GatewayResponse | undefined;

/** Turns an error no stage expected into a response (the error-shaping plugin sets it). */
export type ErrorShaper = (error: unknown, exchange: Exchange) => GatewayResponse;

export class Pipeline {
  private readonly stages = new Map<Phase, Map<string, Stage>>(PHASES.map((phase) => [phase, new Map()]));
  private ordered: Stage[] = [];
  private shapeError: ErrorShaper = (error, exchange) => {
    logger.error({ msg: 'unexpected error', requestId: exchange.requestId, error: (error as Error)?.message, stack: (error as Error)?.stack });
    return jsonResponse(500, errorBody(500, 'Internal server error'));
  };

  register(phase: Phase, name: string, stage: Stage): void {
    this.stages.get(phase)!.set(name, stage);
    this.ordered = PHASES.flatMap((p) => [...this.stages.get(p)!.values()]);
  }

  setErrorShaper(shaper: ErrorShaper): void {
    this.shapeError = shaper;
  }

  /**
   * The response, with the exchange's headers on it; undefined to go on to GraphQL. Stages
   * that answer synchronously (most of them, on the hot path) are run without a promise, so a
   * request that no stage waits for is answered without one.
   */
  run(exchange: Exchange): GatewayResponse | undefined | Promise<GatewayResponse | undefined> {
    return this.runFrom(this.ordered, 0, exchange);
  }

  private runFrom(stages: Stage[], first: number, exchange: Exchange): GatewayResponse | undefined | Promise<GatewayResponse | undefined> {
    try {
      for (let index = first; index < stages.length; index++) {
        const outcome = stages[index]!(exchange);
        if (outcome instanceof Promise) {
          return outcome.then(
            (response) => (response ? this.finish(response, exchange) : this.runFrom(stages, index + 1, exchange)),
            (error: unknown) => this.finish(this.shapeError(error, exchange), exchange),
          );
        }
        if (outcome) return this.finish(outcome, exchange);
      }
    } catch (error) {
      return this.finish(this.shapeError(error, exchange), exchange);
    }
    return undefined;
  }

  private finish(response: GatewayResponse, exchange: Exchange): GatewayResponse {
    Object.assign(response.headers, exchange.responseHeaders);
    return response;
  }
}

export function jsonResponse(status: number, body: string | Buffer, headers: Record<string, string> = {}): GatewayResponse {
  return { status, body, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } };
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): GatewayResponse {
  return jsonResponse(status, errorBody(status, message), headers);
}

/** The one pipeline of this process (all plugin entries of .meshrc.yaml fill it). */
export const pipeline = processSingleton('pipeline', () => new Pipeline());
