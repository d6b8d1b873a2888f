// Who the client is: the socket's peer unless the gateway is told proxies stand in front, and
// what failed authentications are counted under (IPv6 per /64). Issue 11, item 3.
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../gateway/pipeline/client-address.ts';
import { addressKey } from '../../gateway/pipeline/address-key.ts';

describe('clientAddress', () => {
  it("is the socket's peer without trusted proxies, whatever X-Forwarded-For claims", () => {
    expect(clientAddress('192.0.2.1', '203.0.113.9', 0)).toBe('192.0.2.1');
    expect(clientAddress('::ffff:192.0.2.1', undefined, 0)).toBe('192.0.2.1');
    expect(clientAddress(undefined, undefined, 0)).toBe('unknown');
  });

  it('counts trusted proxies from the right, never past what they could have written', () => {
    // client 203.0.113.9 -> proxy 198.51.100.2 -> proxy 10.0.0.5 (the socket's peer)
    const chain = '6.6.6.6, 203.0.113.9, 198.51.100.2';
    expect(clientAddress('10.0.0.5', chain, 1)).toBe('198.51.100.2');
    expect(clientAddress('10.0.0.5', chain, 2)).toBe('203.0.113.9');
    // A client's invented first entry is reached only when more proxies are trusted than stood in front.
    expect(clientAddress('10.0.0.5', chain, 3)).toBe('6.6.6.6');
    expect(clientAddress('10.0.0.5', chain, 9)).toBe('6.6.6.6');
    expect(clientAddress('10.0.0.5', undefined, 1)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', 'not-an-address, 203.0.113.9', 2)).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.5', ' 2001:db8::1 ', 1)).toBe('2001:db8::1');
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses and counts IPv6 ones per /64', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:db8:a:b::1')).toBe('2001:db8:a:b::/64');
    expect(addressKey('2001:0db8:000a:000b:ffff:1:2:3')).toBe('2001:db8:a:b::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('unknown')).toBe('unknown');
  });
});
