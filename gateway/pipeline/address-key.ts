// What a client is counted under, by the failed-auth throttle and the front's per-address
// connection bound: an IPv4 address as it is; an IPv6 address by its /64, the block one
// subscriber or host usually holds (counting per address would let a client rotate through 2^64
// of them).
import { isIP } from 'node:net';

export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const bare = address.split('%')[0]!;
  const [left = '', right] = bare.split('::');
  const groupsOf = (part: string) => (part ? part.split(':') : []);
  // An embedded IPv4 address (in the last 32 bits) stands for two groups.
  const width = (groups: string[]) => groups.reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0);
  const head = groupsOf(left);
  const groups = right === undefined ? head : [...head, ...Array<string>(8 - width(head) - width(groupsOf(right))).fill('0'), ...groupsOf(right)];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
