// The auth throttle's allow-list (issue 45, item 6): off by default, and a mistake in it stops
// the gateway with a message naming the entry, as every other config error does.
import { describe, expect, it } from 'vitest';
import { createGateway } from '../../gateway/gateway.ts';
import { addressMatcher } from '../../gateway/plugins/address-list.ts';

const host = { database: () => Promise.reject(new Error('no database in this test')), env: {} };
const build = (exemptAddresses: unknown) => createGateway({ plugins: [{ 'auth-throttle': { exemptAddresses } }, { 'api-key-auth': {} }] }, host);

describe('exemptAddresses', () => {
  it('takes addresses and CIDR blocks of both families', () => {
    expect(() => build(['10.0.0.0/8', '192.0.2.1', '2001:db8::/32', '::1'])).not.toThrow();
    expect(() => createGateway({ plugins: [{ 'auth-throttle': {} }, { 'api-key-auth': {} }] }, host)).not.toThrow();
  });

  it('names the bad entry', () => {
    const key = 'plugins["@icon-catalogue/gateway"].plugins[0]["auth-throttle"].exemptAddresses';
    expect(() => build(['10.0.0.0/8', '10.0.0.0/33'])).toThrow(`${key}[1]: "10.0.0.0/33" is not an IP address or CIDR block`);
    expect(() => build(['example.com'])).toThrow(`${key}[0]: "example.com" is not an IP address or CIDR block`);
    expect(() => build(['2001:db8::/129'])).toThrow(`${key}[0]: "2001:db8::/129" is not an IP address or CIDR block`);
    expect(() => build(['10.0.0.0/8a'])).toThrow(`${key}[0]: `);
    expect(() => build('10.0.0.0/8')).toThrow(`${key}: `);
  });

  it('matches what the blocks hold, and nothing else', () => {
    const exempt = addressMatcher(['198.51.100.0/25', '2001:db8:ffff::/48', '192.0.2.7']);
    for (const inside of ['198.51.100.0', '198.51.100.127', '2001:db8:ffff::1', '2001:db8:ffff:ffff::9', '192.0.2.7', '::ffff:198.51.100.3']) expect(exempt(inside), inside).toBe(true);
    for (const outside of ['198.51.100.128', '2001:db8:fffe::1', '192.0.2.8', 'unknown', '']) expect(exempt(outside), outside).toBe(false);
    expect(addressMatcher([])('127.0.0.1')).toBe(false);
  });
});
