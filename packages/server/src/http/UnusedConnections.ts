import type { IncomingMessage } from 'node:http';
import { Server, type Socket } from 'node:net';

/** How often, once the endpoint closed, an unused connection's server is checked for having stopped listening. */
const CHECK_MS = 20;

/**
 * The connections of the node servers an endpoint is served from, so that those that never
 * carried a request close when their server closes. Node's `server.close()` closes the idle
 * keep-alive connections but not one accepted that has sent nothing yet: node counts it as
 * busy, waiting for its headers, whose timeout `close()` stops checking (Node 20, 22 and 24 alike). The server then stays open until the client gives the connection up. Node's fetch (undici), which the MCP SDK client uses, opens such a connection after one
 * of its requests is aborted, as a 2025-11-25 client's GET stream is when it closes, and keeps it
 * for the server's keep-alive hint: about 3 s on node's default, 70 s on Fastify's. Every host
 * (Express, Fastify, Nest, the node listener) closes its server right after the endpoint; only
 * the node listener had closed every connection itself.
 *
 * The server is the one node records on each accepted socket (`socket.server`); where there is
 * none (another runtime's node:http), nothing is watched. A connection accepted before the
 * endpoint's first request on that server is not seen.
 */
export class UnusedConnections {
  /** The open connections of each watched server. */
  private readonly servers = new Map<Server, Set<Socket>>();
  /** Once the endpoint closed: the connections that had sent nothing, to close when their server stops listening. */
  private unused: Map<Socket, Server> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  /** Watches the connections of the server `req` came to, from now on (once per server). */
  watch(req: IncomingMessage): void {
    const server = (req.socket as { server?: unknown } | undefined)?.server;
    if (!(server instanceof Server) || this.servers.has(server)) return;
    const open = new Set<Socket>();
    this.servers.set(server, open);
    const onConnection = (socket: Socket): void => {
      open.add(socket);
      socket.once('close', () => void open.delete(socket));
      if (this.unused) this.keep(socket, server);
    };
    server.on('connection', onConnection);
    server.once('close', () => {
      server.off('connection', onConnection);
      this.servers.delete(server);
    });
  }

  /**
   * The endpoint closed and its host is closing the server: each connection that has sent
   * nothing, now or accepted later, is closed once its server stops listening. A connection
   * that sends a request is left to the server, whose `close()` ends it once idle.
   */
  closeWithServers(): void {
    if (this.unused) return;
    this.unused = new Map();
    for (const [server, open] of this.servers) for (const socket of open) this.keep(socket, server);
    this.check();
  }

  private keep(socket: Socket, server: Server): void {
    if (socket.bytesRead > 0 || socket.destroyed) return;
    this.unused!.set(socket, server);
    if (!this.timer) {
      this.timer = setInterval(() => this.check(), CHECK_MS);
      this.timer.unref();
    }
  }

  private check(): void {
    const unused = this.unused!;
    for (const [socket, server] of unused) {
      if (socket.bytesRead > 0 || socket.destroyed) unused.delete(socket);
      else if (!server.listening) {
        unused.delete(socket);
        socket.destroy();
      }
    }
    if (unused.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
