// Contexts of the gateway's own operations (REST routes, icon files), built through a real
// envelop envelope whose context plugins add as many fields as the gateway's do (Mesh's 7 and a
// symbol, catalogue-context's 6): what each context holds, and that every context after the
// first starts from the learned fields, which is what spares V8's Object.assign its slow path.
// What that saves is a matter of allocation, measured by the benchmarks (bench/), not asserted
// here: a byte count from V8's sampling profiler depends on the machine and V8's version.
import { envelop, useExtendContext, useSchema } from '@envelop/core';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { RequestCarrier } from '../../gateway/pipeline/exchange.ts';
import { fieldsSetBy, operationEnvelope, startingContext } from '../../gateway/pipeline/operation-envelope.ts';
import type { Envelope } from '../../gateway/pipeline/plugin.ts';

type Carrier = RequestCarrier & Record<string, unknown>;
const meshMark = Symbol('isMeshContext');

/** An envelope like the gateway's, recording the fields each context had when the first plugin saw it. */
function gatewayLikeEnvelope() {
  const seenAtStart: Record<string, unknown>[] = [];
  const envelope = envelop({
    plugins: [
      useSchema(buildSchema('type Query { ok: Boolean }')),
      {
        onContextBuilding({ context }: { context: Record<string, unknown> }) {
          seenAtStart.push({ ...context });
        },
      },
      useExtendContext(({ req }: { req?: { headers: Record<string, string> } }) => ({ headers: { ...req?.headers }, connectionParams: undefined, Catalogue: {} })),
      useExtendContext(() => ({ pubsub: {}, cache: {}, logger: {}, fetch: () => undefined, [meshMark]: true })),
      useExtendContext(async ({ req }: { req?: { headers: Record<string, string> } }) => ({
        prisma: {},
        reads: {},
        ...(req?.headers['x-api-key'] ? { viewer: { accountId: Number(req.headers['x-api-key']) } } : {}),
        rateLimit: null,
        urls: {},
        signedUrls: {},
      })),
    ],
  }) as unknown as Envelope;
  return { envelope, seenAtStart };
}

const nodeCarrier = (headers: Record<string, string> = {}) => ({ req: { headers } }) as unknown as Carrier;

describe('operation envelope: the contexts of REST routes and icon files', () => {
  it('builds the first context from the carrier alone, and every later one from the fields the first got, each undefined', async () => {
    const { envelope, seenAtStart } = gatewayLikeEnvelope();
    const enveloped = operationEnvelope(envelope);
    const first = await enveloped(nodeCarrier({ 'x-api-key': '7' }));
    const second = await enveloped(nodeCarrier());

    expect(Object.keys(seenAtStart[0]!)).toEqual(['req']);
    const learned = ['Catalogue', 'headers', 'connectionParams', 'pubsub', 'cache', 'logger', 'fetch', 'prisma', 'reads', 'viewer', 'rateLimit', 'urls', 'signedUrls'];
    expect(new Set(Object.keys(seenAtStart[1]!))).toEqual(new Set(['req', ...learned]));
    for (const field of learned) expect(seenAtStart[1]![field]).toBeUndefined();
    expect(first.contextValue.viewer).toEqual({ accountId: 7 });
    // A field one request's plugins set and the next one's do not reads undefined, as it did before.
    expect(second.contextValue.viewer).toBeUndefined();
    expect(second.contextValue[meshMark as unknown as string]).toBe(true);
    expect((second.contextValue.headers as Record<string, string>)['x-api-key']).toBeUndefined();
  });

  it('keeps the carrier as it came: a fetch Request alone adds no req, and carrier fields are not learned', () => {
    const fields = fieldsSetBy({ req: 1, request: 2, headers: 3, prisma: 4 }, { req: 1, request: 2 } as unknown as Carrier);
    expect(Object.keys(fields)).toEqual(['headers', 'prisma']);
    const request = new Request('http://localhost/icons');
    expect(Object.keys(startingContext({ request }, fields))).toEqual(['request', 'headers', 'prisma']);
    const req = nodeCarrier().req;
    expect(startingContext({ req, request }, fields)).toEqual({ req, request, headers: undefined, prisma: undefined });
    expect(startingContext({ req }, undefined)).toEqual({ req });
  });
});
