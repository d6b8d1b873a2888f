// What a gateway plugin is: a value made by a `use...(options, services)` factory, holding its
// state in closures. The gateway (gateway/gateway.ts) builds one pipeline from the plugins in
// the order .meshrc.yaml lists them; a plugin never registers itself anywhere.
import type { GetEnvelopedFn } from '@envelop/core';
import type { GraphQLError } from 'graphql';
import type { Plugin as YogaPlugin } from 'graphql-yoga';
import type { MaybePromise } from '../../lib/maybe-promise.ts';
import type { Database } from '../../prisma/database.ts';
import type { GatewayMetrics } from '../metrics/metrics.ts';
import type { SharedResources } from '../shared-resources.ts';
import type { Exchange, GatewayResponse, RequestCarrier } from './exchange.ts';

/**
 * The phases of a request, in order; within a phase, stages run in the order of their plugins.
 *   start   headers every response carries
 *   route   probes, the REST route, /graphql or a document; 404 and 405 otherwise
 *   auth    who is calling; 401
 *   limit   rate limits and their headers; 429
 *   handle  runs the REST route's operation; 200, 304, 400, 403, 404
 * A request that no stage answers goes on to GraphQL.
 */
export const PHASES = ['start', 'route', 'auth', 'limit', 'handle'] as const;
export type Phase = (typeof PHASES)[number];

/** Answers the request (it ends there) or returns undefined to let it go on. */
export type Stage = (exchange: Exchange) => MaybePromise<GatewayResponse | undefined>;

/** How errors become responses: one shaper for stages, GraphQL results and the front. */
export interface ErrorShaper {
  /** An error nobody expected: logged with the request id, answered 500 (503 when it is overload). */
  unexpected(error: unknown, exchange: Exchange): GatewayResponse;
  /** A GraphQL result with errors: the first error with a known code decides the status. */
  fromGraphQL(errors: readonly GraphQLError[], exchange: Exchange): GatewayResponse;
  /**
   * An error response (errorResponse) in the form the request's destination speaks: as it is for
   * REST paths, a GraphQL response on /graphql. The pipeline passes every error it answers here.
   */
  forDestination(response: GatewayResponse, exchange: Exchange): GatewayResponse;
}

/** The served schema with every envelop plugin of Mesh: how REST operations build their context and run. */
export type Envelope = GetEnvelopedFn<Record<string, unknown>>;

/** A response header as the API's description shows it (an OpenAPI header object, named). */
export interface DescribedHeader {
  /** As sent, under the name the plugin is configured with. */
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

/** A response a plugin gives itself, on any route it guards, with the headers it always sends with it. */
export interface DescribedResponse {
  status: number;
  description: string;
  headers?: readonly DescribedHeader[];
}

/** A header a plugin adds to responses it does not give itself. */
export interface AddedHeader extends DescribedHeader {
  /** The statuses of the responses that carry it; omitted: every response. */
  statuses?: readonly number[];
  /** Statuses whose responses never carry it (answered before the plugin's stage runs). */
  exceptStatuses?: readonly number[];
  /** Whether every such response carries it; false: only some (for example once the request is counted). */
  always: boolean;
}

/** A path a plugin serves itself (not a REST route), for the API's description. */
export interface DescribedPath {
  /** As OpenAPI writes it, for example `/svg/{prefix}/{name}.svg`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** OpenAPI parameter objects. */
  parameters: readonly Record<string, unknown>[];
  /** The path's own responses; every plugin's `responses` join them, as on the REST routes. */
  responses: readonly DescribedResponse[];
  /** The 200's content: media type -> OpenAPI media type object. */
  content: Record<string, Record<string, unknown>>;
  /** Whether a request without any key is served too (as an anonymous caller). */
  keyOptional?: boolean;
}

/**
 * What plugins say of themselves in the API's description (the OpenAPI document), under their
 * configured names and in the REST API's terms (no GraphQL wording).
 */
export interface ApiDescription {
  /** OpenAPI security schemes, by name. */
  securitySchemes?: Record<string, Record<string, unknown>>;
  /** OpenAPI security requirements: any one of them admits a request. */
  security?: Record<string, string[]>[];
  responses?: readonly DescribedResponse[];
  headers?: readonly AddedHeader[];
  /** Paragraphs (Markdown) for the document's introduction. */
  overview?: readonly string[];
  /** Paths the plugin serves itself. */
  paths?: readonly DescribedPath[];
}

export interface GatewayPlugin {
  readonly name: string;
  readonly stages?: Partial<Record<Phase, Stage>>;
  /** After the response went out (or was handed to the client), once per request. */
  onComplete?(exchange: Exchange, status: number): void;
  /**
   * Whether this plugin's auth stage checks credentials on this request: a key is shown, or one
   * is needed. The failed-auth throttle refuses only such requests.
   */
  guards?(exchange: Exchange): boolean;
  /** Plugins for Mesh's Yoga server and envelope (GraphQL context, GraphQL caching). */
  readonly yoga?: readonly YogaPlugin[];
  /** The error shaper, when this plugin is the one that decides how errors look. */
  readonly errors?: ErrorShaper;
  /** What the plugin adds to the API's description. */
  readonly describes?: ApiDescription;
  /**
   * Takes the served schema's envelope and the API's description (every plugin's `describes`);
   * throws a ConfigError when the plugin's config does not fit the schema.
   */
  bind?(envelope: Envelope, api: ApiDescription): void;
  /** What this plugin depends on, by name, with how to ask whether it answers (readiness probes). */
  readonly readiness?: Record<string, () => Promise<boolean>>;
  /** Connects what the plugin needs before serving (waiting at most `timeoutMs`). */
  start?(timeoutMs: number): Promise<void>;
  /** Stops what is this gateway's own; what it got through `services.keep` is disposed by the gateway's lease. */
  close?(): Promise<void>;
  /** Files and folders its config reads (a reload re-reads them; `npm run dev` watches them). */
  readonly watches?: readonly string[];
}

/** What the gateway hands every plugin factory. */
export interface GatewayServices {
  /** The catalogue database, opened on first use. */
  database(): Promise<Database>;
  readonly metrics: GatewayMetrics;
  readonly errors: ErrorShaper;
  /** The exchange of a GraphQL context or a server's request object, when the pipeline saw it. */
  exchangeOf(carrier: RequestCarrier): Exchange | undefined;
  /** Whether any plugin's authentication guards this request (GatewayPlugin.guards). */
  guarded(exchange: Exchange): boolean;
  /** True once the server carrying the gateway drains before stopping (readiness then fails). */
  isDraining(): boolean;
  /** Everything the gateway depends on (the database, and what its plugins name), by name. */
  readinessChecks(): Record<string, () => Promise<boolean>>;
  readonly env: NodeJS.ProcessEnv;
  /**
   * State that outlives a config reload (counters, connections, caches): the value the gateway
   * serving before this one holds under `key` with equal `settings`, else a new one
   * (gateway/shared-resources.ts). Disposed once no gateway holds it; never close it yourself.
   */
  keep: SharedResources['keep'];
  /** How many proxies in front of the gateway are trusted to report the client (the gateway's trustedProxies). */
  readonly trustedProxies: number;
  /** Keys revoked by this process (the account portal): plugins that keep key records forget them at once. */
  readonly keyRevocations: KeyRevocations;
}

export interface KeyRevocations {
  announce(publicId: string): void;
  listen(listener: (publicId: string) => void): void;
}

/** A plugin factory: validates its own options (errors name the key under `where`), returns the plugin. */
export type PluginFactory = (rawOptions: unknown, services: GatewayServices, where: readonly PropertyKey[]) => GatewayPlugin;
