import type { ToolLogger } from '@toolwright/core';
import type { Client, McpSubscription } from '../../sdk/proxyClient';
import type { ListKind } from '../../surface/Catalog';
import { isModern } from './UpstreamSession';

/** Resources the proxy's own session follows at most (the least recently wanted go first). */
export const MAX_FOLLOWED = 100;

/**
 * What the proxy's own session follows of the upstream, so the parent's clients hear of it:
 * its list changes and the updates of the resources wanted (the static ones it lists, and
 * each template resource a client reads or subscribes to), at most `MAX_FOLLOWED`. A
 * 2025-era upstream is asked with `resources/subscribe` per URI (its list changes come
 * unasked); a 2026-07-28 upstream with one `subscriptions/listen` stream naming the lists and
 * the URIs, opened again when the URIs change or the stream drops. A change the upstream made
 * while no stream was open (between the proxy's listing and the first stream, or while one was
 * opened again) reaches no stream: each stream that opens is followed by a listing of the lists
 * it follows (`relist`).
 */
export class UpstreamFollower {
  /** Insertion order: least recently wanted first. */
  private readonly uris = new Map<string, true>();
  private listening: McpSubscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly timeoutMs: number,
    private readonly logger: ToolLogger,
    private readonly label: string,
    /** Lists one of the upstream's lists again and serves it (see `UpstreamCatalog.relist`). */
    private readonly relist: (kind: ListKind) => void,
  ) {}

  /** Starts following the upstream's list changes (a 2026-07-28 upstream's need a stream). */
  start(): void {
    if (isModern(this.client)) this.schedule(0);
  }

  /** Follows `uri`'s updates from now on (a no-op when the upstream takes no subscriptions). */
  want(uri: string): void {
    if (this.closed || this.client.getServerCapabilities()?.resources?.subscribe !== true) return;
    if (this.uris.has(uri)) {
      this.uris.delete(uri);
      this.uris.set(uri, true);
      return;
    }
    if (this.uris.size >= MAX_FOLLOWED) {
      const [oldest] = this.uris.keys();
      this.uris.delete(oldest!);
      if (!isModern(this.client)) void this.client.unsubscribeResource({ uri: oldest! }, { timeout: this.timeoutMs }).catch(() => undefined);
    }
    this.uris.set(uri, true);
    if (isModern(this.client)) this.schedule(LISTEN_DEBOUNCE_MS);
    else void this.client.subscribeResource({ uri }, { timeout: this.timeoutMs }).catch(() => this.uris.delete(uri));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    void this.listening?.close();
    this.listening = undefined;
  }

  private schedule(ms: number): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.listen();
    }, ms);
    this.timer.unref();
  }

  /** Opens a stream for what is followed now, then closes the one it replaces. */
  private async listen(): Promise<void> {
    const previous = this.listening;
    const caps = this.client.getServerCapabilities() ?? {};
    try {
      const subscription = await this.client.listen(
        {
          ...(caps.tools?.listChanged && { toolsListChanged: true }),
          ...(caps.prompts?.listChanged && { promptsListChanged: true }),
          ...(caps.resources?.listChanged && { resourcesListChanged: true }),
          ...(this.uris.size > 0 && { resourceSubscriptions: [...this.uris.keys()] }),
        },
        { timeout: this.timeoutMs },
      );
      if (this.closed) return void subscription.close();
      this.listening = subscription;
      this.retryMs = RETRY_MIN_MS;
      // What changed before the stream was open is on no stream: listed again now that changes reach it.
      if (caps.tools?.listChanged) this.relist('tools');
      if (caps.prompts?.listChanged) this.relist('prompts');
      if (caps.resources?.listChanged) this.relist('resources');
      void subscription.closed.then((how) => {
        if (how === 'local' || this.listening !== subscription || this.closed) return;
        this.listening = undefined;
        this.logger.warn(`${this.label} ended its subscriptions/listen stream; listening again`);
        this.schedule(this.retryMs);
      });
    } catch (error) {
      if (this.closed) return;
      this.logger.warn(`${this.label}: subscriptions/listen failed (${(error as Error).message}); next try in ${this.retryMs} ms`);
      this.schedule(this.retryMs);
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
      return;
    }
    await previous?.close().catch(() => undefined);
  }
}

const LISTEN_DEBOUNCE_MS = 10;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 30_000;
