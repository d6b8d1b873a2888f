// Who the client is, for per-address limits and logs. By default the socket's peer: anything a
// client writes in X-Forwarded-For is its own claim, and trusting it would let one client pose
// as any number of addresses. Behind proxies (load balancers) the socket's peer is the nearest
// proxy, and each proxy appends the address it received the request from to X-Forwarded-For:
// with `trustedProxies` of them in front of the gateway, the client is the entry that many places
// from the right (counting the socket's peer as the first), as Express's "trust proxy" counts.
import { isIP } from 'node:net';

/** `::ffff:192.0.2.1` (an IPv4 client of a dual-stack socket) is `192.0.2.1`. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * The client's address: the socket's peer, or with `trustedProxies` > 0 the address the
 * outermost trusted proxy saw. An entry that is not an IP address (a client's invention, when
 * fewer proxies than configured stood in the way) is not trusted: the last trusted hop is used.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustedProxies: number): string {
  let client = plainAddress(socketAddress ?? 'unknown');
  if (trustedProxies <= 0 || !forwardedFor) return client;
  const hops = forwardedFor.split(',');
  for (let trusted = 1; trusted <= trustedProxies && hops.length > 0; trusted++) {
    const hop = hops.pop()!.trim();
    if (isIP(hop) === 0) break;
    client = plainAddress(hop);
  }
  return client;
}
