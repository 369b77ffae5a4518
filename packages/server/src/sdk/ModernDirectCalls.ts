import type { Implementation, RequestId } from '@modelcontextprotocol/server';
import type { ToolResult } from '@toolwright/core';
import type { DirectToolCall } from './registerToolHandlers';

/** Envelopes remembered per connection: a client sends the same one on every request. */
const MAX_ENVELOPES = 8;
/** Requests waiting for the SDK's verdict on their envelope, at most. */
const MAX_LEARNING = 64;

/** What the server instance serving the connection lends the lane. */
interface Instance {
  /** The tool's compiled call alone, when the request needs nothing more (as on the 2025-era lane). */
  readonly direct: DirectToolCall;
  /** What the SDK stamps into each result's `_meta` (`io.modelcontextprotocol/serverInfo`). */
  readonly serverInfo: () => Implementation | undefined;
}

/**
 * What one 2026-07-28 stdio connection's lane of plain `tools/call` requests (see
 * `serveModernCalls`) shares with the server instance the SDK made for it.
 *
 * The lane takes no request whose `_meta` envelope the SDK has not accepted before: the
 * first request with an envelope goes the SDK's way, and when the SDK hands it to the
 * `tools/call` handler (which it does only once the envelope passed its checks), that
 * envelope, as sent, is known good for the connection. A call the lane ran but cannot
 * answer itself (a result it cannot vouch for, a rejection) is handed to the SDK, whose
 * handler then returns the answer already computed instead of running the tool again.
 */
export class ModernDirectCalls {
  private instance: Instance | undefined;
  private readonly envelopes = new Set<string>();
  private readonly learning = new Map<RequestId, string>();
  private readonly ran = new Map<RequestId, Promise<ToolResult>>();

  /** A 2026-07-28 instance that may serve plain calls now serves the connection. */
  attach(instance: Instance): void {
    this.instance = instance;
  }

  /** Another instance serves the connection (a 2025-era one after a probe, or a traced one): the lane stops. */
  detach(): void {
    this.instance = undefined;
    this.envelopes.clear();
  }

  /** The instance's calls, for a request whose envelope the SDK has accepted on this connection (as serialized by the lane). */
  servingFor(envelope: string): Instance | undefined {
    return this.envelopes.has(envelope) ? this.instance : undefined;
  }

  /** The `tools/call` request `id` goes to the SDK, with a plain call's envelope (undefined: not a plain call): kept for the verdict. */
  toSdk(id: RequestId, envelope: string | undefined): void {
    if (envelope === undefined || this.envelopes.has(envelope)) {
      this.learning.delete(id);
      return;
    }
    if (this.learning.size >= MAX_LEARNING) this.learning.delete(this.learning.keys().next().value!);
    this.learning.set(id, envelope);
  }

  /** The lane ran request `id` and hands it to the SDK with its answer. */
  handOver(id: RequestId, answer: Promise<ToolResult>): void {
    this.ran.set(id, answer);
  }

  /**
   * The SDK's `tools/call` handler got request `id`: its envelope passed the SDK's checks.
   * Returns the answer when the lane already ran the call.
   */
  handled(id: RequestId): Promise<ToolResult> | undefined {
    const envelope = this.learning.get(id);
    if (envelope !== undefined) {
      this.learning.delete(id);
      if (this.envelopes.size < MAX_ENVELOPES) this.envelopes.add(envelope);
    }
    const answer = this.ran.get(id);
    if (answer) this.ran.delete(id);
    return answer;
  }
}
