import type { AuthInfo, ToolResult } from '@toolwright/core';
import { Server, type Implementation, type RequestId, type Transport } from '@modelcontextprotocol/server';
import { attachAuthInfo } from '../auth/attachAuthInfo';
import { ModernDirectCalls } from './ModernDirectCalls';
import type { DirectToolCall } from './registerToolHandlers';
import { serveDirectCalls } from './serveDirectCalls';

/** What a `ToolwrightServer` adds to the SDK's `Server` when it connects. */
export interface ToolwrightServerOptions {
  /** Every request comes from this caller (stdio: the identity the process that started the server vouches for), whichever entry connects it. */
  readonly caller?: AuthInfo;
  /** 2025 era: plain `tools/call` requests are served before the SDK's `Protocol` sees them (see `serveDirectCalls`). */
  readonly direct?: DirectToolCall;
  /** 2026-07-28: plain `tools/call` requests may be served before the SDK's stdio entry (see `serveModernCalls`). */
  readonly modernDirect?: DirectToolCall;
}

/** The SDK's `Server`, with Toolwright's additions to each transport it connects to. */
export class ToolwrightServer extends Server {
  constructor(
    private readonly additions: ToolwrightServerOptions,
    ...args: ConstructorParameters<typeof Server>
  ) {
    super(...args);
  }

  private lane: ModernDirectCalls | undefined;

  /** The lane of plain 2026-07-28 calls of the connection this instance serves, if it serves one. */
  get modernLane(): ModernDirectCalls | undefined {
    return this.lane;
  }

  /** What the SDK stamps into each 2026-07-28 result's `_meta` (`io.modelcontextprotocol/serverInfo`). */
  get resultServerInfo(): Implementation | undefined {
    return this._outboundServerInfo();
  }

  /** This instance now serves a stdio connection with a lane of plain 2026-07-28 calls: it lends it its calls, or stops it. */
  attachLane(lane: ModernDirectCalls): void {
    const direct = this.additions.modernDirect;
    if (!direct) return lane.detach();
    this.lane = lane;
    lane.attach({ direct, serverInfo: () => this.resultServerInfo });
  }

  /** This instance serves the one 2026-07-28 HTTP request `id`, which the lane already ran: its `tools/call` handler returns `answer`. */
  answering(id: RequestId, answer: Promise<ToolResult>): void {
    this.lane = new ModernDirectCalls();
    this.lane.handOver(id, answer);
  }

  override async connect(transport: Transport): Promise<void> {
    const connecting = super.connect(transport);
    // The SDK installs its `onmessage` before its first await; a refused connect leaves the transport alone.
    if (this.additions.direct && this.transport === transport && transport.onmessage) serveDirectCalls(transport, this.additions.direct, transport.onmessage, (error) => this.onerror?.(error));
    await connecting;
    if (this.additions.caller) attachAuthInfo(transport, this.additions.caller);
  }
}
