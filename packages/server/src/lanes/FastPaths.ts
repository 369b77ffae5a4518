import type { Transport } from '../sdk/sdk';
import type { McpServerHandle } from '../serving/ServerFactory';
import type { DirectToolCall } from '../handlers/registerToolHandlers';
import { serveDirectCalls, serveWithoutServer, type Deliver } from './serveDirectCalls';

/**
 * The one seam of the requests a server answers without the SDK. Every fast path sits behind
 * it, is installed by `createApp` (see `fastPathsOf`) and is switched off with
 * `createApp({ fastPaths: false })` or `TOOLWRIGHT_FAST_PATHS=off`; with it off, every message
 * goes the SDK's way. A fast path stays only while the differential fuzz
 * (test/fast-paths.fuzz.test.ts) finds its answers identical to the SDK's.
 *
 * Today there is one: a 2025-11-25 connection's plain `tools/call` (see `serveDirectCalls`).
 */
export interface FastPaths {
  /**
   * Reads a 2025-era connection's messages before the SDK's `onmessage` (`toSdk`) does, and
   * answers the plain tool calls among them itself.
   */
  intercept(transport: Transport, toSdk: Deliver, onerror: (error: Error) => void): void;
  /**
   * Serves one stateless 2025-era exchange, making its server only when a message needs
   * one. Returns what closes the exchange.
   */
  serveStateless(transport: Transport, makeServer: () => McpServerHandle, onerror: (error: Error) => void): { close(): Promise<void> };
}

/** The fast paths of an app whose plain tool calls `direct` serves. */
export function createFastPaths(direct: DirectToolCall): FastPaths {
  return {
    intercept: (transport, toSdk, onerror) => serveDirectCalls(transport, direct, toSdk, onerror),
    serveStateless: (transport, makeServer, onerror) => serveWithoutServer(transport, direct, makeServer, onerror),
  };
}

/**
 * Whether an app takes its fast paths: `createApp`'s `fastPaths` option when given, else the
 * `TOOLWRIGHT_FAST_PATHS` environment variable (`off`, `0` or `false` turn them off), else on.
 */
export function fastPathsWanted(option: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (option !== undefined) return option;
  const setting = env.TOOLWRIGHT_FAST_PATHS?.trim().toLowerCase();
  return !(setting === 'off' || setting === '0' || setting === 'false');
}
