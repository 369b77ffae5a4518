import type { Class, LogLevel, ProtocolEra } from '@toolwright/core';
import { PerRequestHTTPServerTransport, type Server } from '../sdk/sdk';
import { ToolwrightServer } from '../sdk/ToolwrightServer';
import type { Connection } from '../pipeline/Connection';
import type { ListKind } from './Catalog';

const LIST_CHANGED = {
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
  prompts: 'notifications/prompts/list_changed',
} as const;

/** Where list changes and resource updates go for clients no live server instance reaches (2026-07-28 HTTP: `subscriptions/listen` streams). */
export interface ChangeNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

const NOTIFY: Record<ListKind, keyof Omit<ChangeNotifier, 'resourceUpdated'>> = { tools: 'toolsChanged', resources: 'resourcesChanged', prompts: 'promptsChanged' };

/**
 * The app's live connections, for what goes to all of them (`list_changed`, debounced)
 * or to some (`resources/updated` to subscribers only). Connections leave when their
 * server closes, or when a send finds them closed. A 2026-07-28 stdio connection gets
 * everything: the SDK's entry routes it to the client's `subscriptions/listen` streams,
 * filtered there; notifiers carry the same to per-request HTTP endpoints.
 */
export class Connections {
  private readonly live = new Set<Connection>();
  private readonly notifiers = new Set<ChangeNotifier>();
  private readonly pending = new Set<ListKind>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly defaultLogLevel: LogLevel,
    private readonly debounceMs: number,
    /** Whether the app serves `uri` now (an enabled resource, or a URI of an enabled template): only those updates go out. */
    private readonly serves: (uri: string) => boolean = () => true,
  ) {}

  get size(): number {
    return this.live.size;
  }

  /**
   * Tracks a new server's connection state until the server closes. It joins the live
   * connections when it connects, unless to the SDK's per-request HTTP transport (a 2026-07-28
   * HTTP request): that transport drops every message not related to its one request, so no
   * list change or resource update could reach it (those go to `subscriptions/listen` streams
   * through the notifiers), so passing one server per request through the long-lived `Set`
   * would be work for nothing on every call.
   */
  open(server: Server, era: ProtocolEra, overrides?: ReadonlyMap<Class, unknown>, maxRequestBytes?: number): Connection {
    // One literal, one shape for every connection (no spread: a server is made per 2026-07-28 HTTP request).
    const connection: Connection = { server, era, maxRequestBytes, logLevel: this.defaultLogLevel, subscriptions: new Set(), overrides };
    let disposed: Promise<void> | undefined;
    if (server instanceof ToolwrightServer) {
      server.onconnect = (transport) => {
        if (!(transport instanceof PerRequestHTTPServerTransport)) this.live.add(connection);
      };
      server.afterClose = () => disposed;
    } else this.live.add(connection);
    const previous = server.onclose;
    server.onclose = () => {
      this.live.delete(connection);
      // Session-lifetime services end with their session; closing the server waits for them.
      disposed = connection.sessionScope?.dispose();
      previous?.();
    };
    return connection;
  }

  /** Tells `notifier` every change from now on; returns the function that stops it. */
  addNotifier(notifier: ChangeNotifier): () => void {
    this.notifiers.add(notifier);
    return () => void this.notifiers.delete(notifier);
  }

  /**
   * Announces that a list changed. Changes within `debounceMs` coalesce into one
   * notification per list, sent to every live connection.
   */
  listChanged(kind: ListKind): void {
    this.pending.add(kind);
    this.timer ??= setTimeout(() => this.flush(), this.debounceMs);
    this.timer.unref?.();
  }

  /** Sends `notifications/resources/updated` to the connections subscribed to `uri`; returns how many. */
  resourceUpdated(uri: string): number {
    // A resource switched off or removed is not served: nobody hears of it, whatever they subscribed to (the subscriptions stay, for when it is enabled again).
    if (!this.serves(uri)) return 0;
    let sent = 0;
    for (const n of this.notifiers) n.resourceUpdated(uri);
    for (const c of this.live) {
      if (c.era === 'legacy' && !c.subscriptions.has(uri)) continue;
      // A connection opened before the app served resources did not declare them: it is told nothing of them.
      if (!c.server.getCapabilities().resources) continue;
      sent++;
      this.send(c, () => c.server.sendResourceUpdated({ uri }));
    }
    return sent;
  }

  private flush(): void {
    this.timer = undefined;
    const kinds = [...this.pending];
    this.pending.clear();
    for (const n of this.notifiers) for (const kind of kinds) n[NOTIFY[kind]]();
    for (const c of this.live) {
      // Only the lists a connection declared when it opened: the SDK refuses to send the others, and a
      // refused send would take the connection out of the live ones (no more changes of any list).
      const declared = c.server.getCapabilities();
      for (const kind of kinds) if (declared[kind]) this.send(c, () => c.server.notification({ method: LIST_CHANGED[kind] }));
    }
  }

  private send(c: Connection, send: () => Promise<void>): void {
    // A connection without a transport (closed, or a stateless request already answered) has left.
    if (!c.server.transport) {
      this.live.delete(c);
      return;
    }
    send().catch(() => this.live.delete(c));
  }
}
