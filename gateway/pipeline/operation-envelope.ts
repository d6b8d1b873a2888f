// The served schema's envelope as the gateway's own operations use it (REST routes, icon
// files): a request's context built by the envelope's context plugins, from a first context
// object that already holds every field those plugins set.
//
// Why: envelop adds each plugin's fields with Object.assign, and V8 (as we read its source: a
// soft limit of 12 fields added by keyed stores) then leaves the object's transition tree.
// Mesh's fields (7 and a symbol) and catalogue-context's (6) are 14, and every request's context
// had a hidden class of its own (seen with --allow-natives-syntax): kilobytes allocated per
// request, and every read of the context (resolvers, plugins) met a new shape. The fields are
// learned from the first context built (they depend on the plugins and on .meshrc.yaml's source
// names) and set to undefined in the next ones, so every context after the first shares one
// hidden class, and a field its plugin did not set reads undefined, as before.
import type { ExecutionArgs } from 'graphql';
import type { RequestCarrier } from './exchange.ts';
import type { Envelope } from './plugin.ts';

export interface EnvelopedOperation {
  schema: ExecutionArgs['schema'];
  contextValue: Record<string, unknown>;
  execute: (args: ExecutionArgs) => unknown;
}

/** Fields every context is to start with, each undefined; a fresh object literal built from it keeps one hidden class. */
type StartingFields = Readonly<Record<string, undefined>>;

/** The context to build `carrier`'s from: the carrier's own objects, then the learned fields. */
export function startingContext(carrier: RequestCarrier, fields: StartingFields | undefined): Record<string, unknown> {
  if (!fields) return { ...carrier };
  // The carrier's objects named, the learned fields spread after them: `{ ...carrier, ...fields }`
  // still left Object.assign more to allocate (V8's sampling heap profiler).
  const { req, request } = carrier;
  if (req && request) return { req, request, ...fields };
  if (req) return { req, ...fields };
  return request ? { request, ...fields } : { ...fields };
}

/** The string-keyed fields of a built context that its carrier did not bring, each undefined. */
export function fieldsSetBy(context: object, carrier: RequestCarrier): StartingFields {
  return Object.fromEntries(
    Object.keys(context)
      .filter((key) => !Object.hasOwn(carrier, key))
      .map((key) => [key, undefined]),
  );
}

/** A request's schema, context and executor. */
export type OperationEnvelope = (carrier: RequestCarrier) => Promise<EnvelopedOperation>;

/** Builds each request's context through `envelope`, every one after the first from the fields the first one got. */
export function operationEnvelope(envelope: Envelope): OperationEnvelope {
  let fields: StartingFields | undefined;
  return async (carrier) => {
    const { schema, contextFactory, execute } = envelope(startingContext(carrier, fields));
    const contextValue = (await contextFactory()) as Record<string, unknown>;
    fields ??= fieldsSetBy(contextValue, carrier);
    return { schema, contextValue, execute };
  };
}
