import type { IncomingMessage } from 'node:http';
import type { Http2Session } from 'node:http2';
import { Server } from 'node:net';

/** The first wait, once the endpoint closed, before the servers of the open sessions are checked for having stopped listening. */
const FIRST_CHECK_MS = 20;
/** The longest wait between two checks: each wait doubles while a server keeps listening, up to this. */
const LONGEST_CHECK_MS = 500;

/**
 * The HTTP/2 sessions of the node servers an endpoint is served from, so that each is sent a
 * graceful GOAWAY once the endpoint has closed and the session's server has stopped listening.
 * Node 20 and 22's `server.close()` neither closes an HTTP/2 session nor sends it GOAWAY (24 and
 * 26 do both): a client that keeps its connection open, as HTTP/2 clients do, would hold the
 * server open. A host that closes the endpoint and keeps its server listening keeps every
 * session: they still serve its other routes.
 *
 * Node emits no event when a server stops listening (its 'close' waits for the last
 * connection), so once the endpoint closed, the servers are checked 20 ms later, then at
 * doubling intervals up to 500 ms while one of them keeps listening with sessions open.
 *
 * Seen are the sessions of the requests that reach the endpoint, before or after it closed, and
 * from the endpoint's first HTTP/2 request on a server, every session that server accepts. The
 * server is the one node records on each accepted socket (`socket.server`); where there is none
 * (another runtime's node:http2), nothing is watched.
 */
export class Http2SessionsOfServers {
  /** The open sessions of each watched server. */
  private readonly servers = new Map<Server, Set<Http2Session>>();
  private endpointClosed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wait = FIRST_CHECK_MS;

  /** Watches the session of HTTP/2 request `req`, and from now on every session its server accepts (once per server). */
  watch(req: IncomingMessage): void {
    const session = (req as { stream?: { session?: Http2Session } }).stream?.session;
    const server = (req.socket as { server?: unknown } | undefined)?.server;
    if (!session || !(server instanceof Server)) return;
    let open = this.servers.get(server);
    if (!open) {
      const sessions = new Set<Http2Session>();
      open = sessions;
      this.servers.set(server, sessions);
      const onSession = (accepted: Http2Session): void => this.add(sessions, accepted);
      server.on('session', onSession);
      server.once('close', () => {
        server.off('session', onSession);
        this.servers.delete(server);
      });
    }
    this.add(open, session);
  }

  /**
   * The endpoint closed: each session seen, now or later, is sent GOAWAY once its server stops
   * listening, and closes when its last stream ends.
   */
  closeWithServers(): void {
    if (this.endpointClosed) return;
    this.endpointClosed = true;
    this.check();
  }

  private add(open: Set<Http2Session>, session: Http2Session): void {
    if (open.has(session) || session.closed || session.destroyed) return;
    open.add(session);
    session.once('close', () => void open.delete(session));
    if (this.endpointClosed) this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.check(), this.wait);
    this.timer.unref();
    this.wait = Math.min(this.wait * 2, LONGEST_CHECK_MS);
  }

  private check(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let listening = false;
    for (const [server, open] of this.servers) {
      if (server.listening) listening ||= open.size > 0;
      else for (const session of open) if (!session.closed && !session.destroyed) session.close();
    }
    if (listening) this.schedule();
  }
}
