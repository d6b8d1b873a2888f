// Lists of client addresses in options: each entry an address or a CIDR block, IPv4 or IPv6.
// auth-throttle exempts such a list (a conformance fuzzer's, a monitoring probe's addresses);
// rate-limit gives such lists anonymous limits of their own (a load generator's, a partner's).
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { plainAddress } from '../pipeline/client-address.ts';

/** The family and prefix length of an entry, or undefined when it is not an address or block. */
function parseEntry(entry: string): { address: string; family: 'ipv4' | 'ipv6'; prefix?: number } | undefined {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (version === 4 ? 32 : 128)) return undefined;
  return { address, family, prefix: Number(prefix) };
}

export const addressList = z.array(
  z.string().superRefine((entry, context) => {
    if (!parseEntry(entry)) context.addIssue({ code: 'custom', message: `${JSON.stringify(entry)} is not an IP address or CIDR block (such as 192.0.2.0/24 or 2001:db8::/48)` });
  }),
);

/** Whether an address (as the exchange gives it: IPv4 plain, IPv6 as written) is in the list. */
export function addressMatcher(entries: readonly string[]): (address: string) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseEntry(entry)!;
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return (address) => {
    const plain = plainAddress(address);
    const version = isIP(plain);
    return version !== 0 && list.check(plain, version === 4 ? 'ipv4' : 'ipv6');
  };
}
