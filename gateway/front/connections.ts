// The front's connections, counted and bounded by its own bookkeeping (issue 45, item 2; issue
// 48). With Node's `server.maxConnections` alone, one address that opened 4,096 keep-alive
// connections and left them idle filled the cap, and every other client's connection was
// refused until they timed out, renewable at will. Here connections are bounded per client
// address as well (IPv6 per /64), and at either bound the connection idle the longest makes
// room (within the address, or anywhere at the global cap); a new connection is refused only
// when none is idle: every one is in the middle of a request, which the server's timeouts bound.
// Which response a socket is serving is known from the 'request' and response 'close' events,
// not from Node's private `socket._httpMessage`.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from '../pipeline/address-key.ts';
import { clientAddress } from '../pipeline/client-address.ts';

export interface ConnectionLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

export interface ConnectionEvents {
  /** A new connection was closed at once: a bound was reached and no connection was idle. */
  refused(): void;
  /** An idle keep-alive connection was closed to make room for a new one. */
  evicted(): void;
}

interface Connection {
  readonly socket: Socket;
  readonly group: Set<Connection>;
  /** Responses under way on it, in the order of their requests (pipelining). */
  readonly responses: Set<ServerResponse>;
  /**
   * 0 while it is new or has a request under way; once it finished its requests (a keep-alive
   * connection waiting), a number that grows with the time it became idle.
   */
  idleRank: number;
}

export class Connections {
  private readonly bySocket = new Map<Socket, Connection>();
  /** Idle connections, the longest-idle first (a Set keeps insertion order). */
  private readonly idle = new Set<Connection>();
  /** Connections per client address key. */
  private readonly groups = new Map<string, Set<Connection>>();
  private idleCount = 0;

  constructor(
    private limits: ConnectionLimits,
    private readonly events: ConnectionEvents,
  ) {}

  /** New bounds (a config reload); connections already open stay, and count against them. */
  setLimits(limits: ConnectionLimits): void {
    this.limits = limits;
  }

  /** Open connections. */
  get size(): number {
    return this.bySocket.size;
  }

  /** For the server's 'connection' event: tracks `socket`, or closes it when there is no room. */
  admit(socket: Socket): void {
    const key = addressKey(clientAddress(socket.remoteAddress, undefined, 0));
    const group = this.groups.get(key) ?? new Set<Connection>();
    const full =
      (group.size >= this.limits.maxConnectionsPerAddress && !this.evict(longestIdleOf(group))) ||
      (this.bySocket.size >= this.limits.maxConnections && !this.evict(this.idle.values().next().value));
    if (full) {
      socket.destroy();
      this.events.refused();
      return;
    }
    const connection: Connection = { socket, group, responses: new Set(), idleRank: 0 };
    group.add(connection);
    this.groups.set(key, group);
    this.bySocket.set(socket, connection);
    socket.once('close', () => {
      this.bySocket.delete(socket);
      this.idle.delete(connection);
      group.delete(connection);
      if (group.size === 0 && this.groups.get(key) === group) this.groups.delete(key);
    });
  }

  /** For every request: its connection is busy until the response ends. */
  started(socket: Socket, res: ServerResponse): void {
    const connection = this.bySocket.get(socket);
    if (!connection) return;
    connection.responses.add(res);
    connection.idleRank = 0;
    this.idle.delete(connection);
    res.once('close', () => {
      connection.responses.delete(res);
      if (connection.responses.size > 0 || connection.socket.destroyed) return;
      connection.idleRank = ++this.idleCount;
      this.idle.add(connection);
    });
  }

  /** The response a connection is serving (the first under way), if any. */
  responseOn(socket: unknown): ServerResponse | undefined {
    const connection = this.bySocket.get(socket as Socket);
    return connection?.responses.values().next().value;
  }

  /** Every response under way. */
  *responses(): Iterable<ServerResponse> {
    for (const connection of this.bySocket.values()) yield* connection.responses;
  }

  /** Cuts every connection; returns how many there were. */
  destroyAll(): number {
    const count = this.bySocket.size;
    for (const socket of [...this.bySocket.keys()]) socket.destroy();
    return count;
  }

  private evict(connection: Connection | undefined): boolean {
    if (!connection) return false;
    // Forgotten now rather than on 'close', which comes later: the new connection takes its place.
    this.idle.delete(connection);
    connection.group.delete(connection);
    this.bySocket.delete(connection.socket);
    connection.socket.destroy();
    this.events.evicted();
    return true;
  }
}

/** The connection of `group` idle the longest (groups are small: at most maxConnectionsPerAddress). */
function longestIdleOf(group: Set<Connection>): Connection | undefined {
  let best: Connection | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const connection of group) {
    if (connection.idleRank > 0 && connection.idleRank < bestRank) {
      best = connection;
      bestRank = connection.idleRank;
    }
  }
  return best;
}
