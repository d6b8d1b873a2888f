// The gateway's `server:` section (gateway/server-options.ts): defaults when it is absent, and
// a mistake stops the gateway with a message naming the key, as every other config error does.
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../gateway/gateway.ts';

const host = { database: () => Promise.reject(new Error('no database in this test')), env: {} };
const build = (server: unknown) => createGateway({ server, plugins: [] }, host);
const KEY = 'plugins["@icon-catalogue/gateway"].server';

describe('server options', () => {
  it('default to 100 KB bodies, 4 MiB in flight, 4,096 connections, 10 s / 30 s / 65 s timeouts, 10 s drain', () => {
    expect(createGateway({ plugins: [] }, host).serverOptions).toEqual({
      maxBodyBytes: 102_400,
      maxBodyBytesInFlight: 4_194_304,
      maxGraphQLTokens: 5_000,
      maxGraphQLNesting: 64,
      maxConnections: 4_096,
      maxConnectionsPerAddress: 1_024,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      drainTimeoutMs: 10_000,
    });
    expect(build({ drainTimeoutMs: 2_000 }).serverOptions).toMatchObject({ drainTimeoutMs: 2_000, maxBodyBytes: 102_400 });
  });

  it('name the key of a mistake', () => {
    expect(() => build({ headersTimeoutMs: '10s' })).toThrow(`${KEY}.headersTimeoutMs: Invalid input: expected number, received string`);
    expect(() => build({ maxConnections: 0 })).toThrow(`${KEY}.maxConnections:`);
    expect(() => build({ maxBody: 1 })).toThrow(`${KEY}: Unrecognized key: "maxBody"`);
  });

  it('refuse limits that contradict each other, naming both keys', () => {
    expect(() => build({ headersTimeoutMs: 40_000 })).toThrow(`${KEY}.headersTimeoutMs: must not exceed requestTimeoutMs`);
    expect(() => build({ maxBodyBytes: 200_000, maxBodyBytesInFlight: 100_000 })).toThrow(`${KEY}.maxBodyBytesInFlight: must be at least maxBodyBytes`);
  });
});
