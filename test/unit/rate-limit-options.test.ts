// rate-limit's anonymousAddressLimits: off by default, and a mistake in it stops the gateway with
// a message naming the entry, as every other config error does.
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../gateway/gateway.ts';

const host = { database: () => Promise.reject(new Error('no database in this test')), env: { REDIS_URL: '', REDIS_CLUSTER_NODES: '' } };
const build = (anonymousAddressLimits: unknown) =>
  createGateway({ plugins: [{ 'api-key-auth': {} }, { 'rate-limit': { store: 'memory', anonymousAddressLimits } }] }, host);
const key = 'plugins["@icon-catalogue/gateway"].plugins[1]["rate-limit"].anonymousAddressLimits';

describe('anonymousAddressLimits', () => {
  it('takes addresses and blocks of both families, with limits above hourlyLimit', () => {
    expect(() => build([{ addresses: ['10.0.0.0/8', '2001:db8::/32'], hourlyLimit: 1_000_000 }, { addresses: ['::1'], hourlyLimit: 5 }])).not.toThrow();
    expect(() => build([])).not.toThrow();
  });

  it('names the bad entry', () => {
    expect(() => build([{ addresses: ['10.0.0.0/8', '10.0.0.0/33'], hourlyLimit: 10 }])).toThrow(`${key}[0].addresses[1]: "10.0.0.0/33" is not an IP address or CIDR block`);
    expect(() => build([{ addresses: ['192.0.2.1'], hourlyLimit: 10 }, { addresses: [], hourlyLimit: 10 }])).toThrow(`${key}[1].addresses: `);
    expect(() => build([{ addresses: ['192.0.2.1'], hourlyLimit: 0 }])).toThrow(`${key}[0].hourlyLimit: `);
    expect(() => build([{ addresses: ['192.0.2.1'] }])).toThrow(`${key}[0].hourlyLimit: `);
    expect(() => build([{ addresses: ['192.0.2.1'], hourlyLimit: 10, limit: 5 }])).toThrow(`${key}[0]: `);
    expect(() => build({ addresses: ['192.0.2.1'], hourlyLimit: 10 })).toThrow(`${key}: `);
  });
});
