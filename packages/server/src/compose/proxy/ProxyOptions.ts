import type { AuthInfo, ToolLogger } from '@toolwright/core';

/** Which protocol revision the proxy speaks to the upstream. */
export type UpstreamProtocol = 'auto' | '2025-11-25' | '2026-07-28';

/** Headers for the upstream, from the caller the proxy serves (undefined for the proxy's own session, which lists the upstream). */
export type UpstreamCredentials = (caller: AuthInfo | undefined) => Record<string, string> | Promise<Record<string, string>>;

/** What every proxy takes, whatever its transport. */
export interface ProxyCommonOptions {
  /** The name logs and error messages give the upstream (default: the name the upstream reports). */
  readonly name?: string;
  /**
   * The protocol revision spoken upstream: `'auto'` (default) asks the upstream and speaks
   * 2026-07-28 when it offers it, else 2025-11-25; a revision pins it.
   */
  readonly protocol?: UpstreamProtocol;
  /**
   * Longest wait for one upstream answer, in ms (default 600000), and for a 2026-07-28 client's
   * answer to a 2025-era upstream's question (the waiting upstream call is then cancelled). The
   * parent's `toolTimeoutMs` applies too, and cancels the upstream request. A request this
   * timeout ends is cancelled upstream (`notifications/cancelled`).
   */
  readonly requestTimeoutMs?: number;
  /**
   * Longest wait for what the proxy asks on its own session, in ms (default 30000): each listing
   * as a whole, all its pages together (`proxyServer()`'s first listings among them, and each
   * listing again after a list change), each completion and resource subscription. An upstream
   * that does not answer in time fails `proxyServer()` with a `ConfigError` naming it, a
   * completion with an error naming it, and a listing again with a warning in the log (the last
   * list is served meanwhile). A listing that has not ended after 64 pages fails the same way.
   */
  readonly listTimeoutMs?: number;
  /**
   * Largest message the proxy reads from the upstream, in bytes (default 10485760, 10 MiB: the
   * SDK's stdio client's own limit): over stdio one line, over HTTP a JSON answer or one line of
   * an event stream. A larger one ends that upstream connection, and the call it answered gets
   * an `isError` result that says so; the next request opens another connection.
   */
  readonly maxMessageBytes?: number;
  /** Reconnecting after the upstream drops: first delay, cap and factor of the backoff (defaults 250 ms, 30 s, 2; jittered). */
  readonly reconnect?: { readonly initialDelayMs?: number; readonly maxDelayMs?: number; readonly factor?: number };
  /**
   * Upstream sessions open at once (one per downstream connection, one per running call of a
   * caller without one), and calls waiting for a 2026-07-28 client's answer, each (default 100).
   * A call beyond it is an `isError` result; a question beyond it makes the call run again on the retry.
   */
  readonly maxSessions?: number;
  /**
   * The upstream's log lines (`notifications/message`) passed on per upstream session and second,
   * at most (default 100); the rest of a flood is dropped and counted in one warning to the client.
   */
  readonly maxLogLinesPerSecond?: number;
  /** An idle upstream session of a caller without a session of its own (2026-07-28, stateless HTTP) closes after this long unused (default 300000 ms). */
  readonly idleSessionMs?: number;
  /** Where the proxy logs upstream failures and reconnects (stderr by default). */
  readonly logger?: ToolLogger;
}

/** An upstream served over Streamable HTTP. */
export interface ProxyHttpOptions extends ProxyCommonOptions {
  /** The upstream's MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  readonly url: string | URL;
  /** Headers sent with every upstream request (an API key, say). The downstream client's own headers are never forwarded. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A token sent as `Authorization: Bearer <token>` upstream. Not the downstream client's token: that is never forwarded. */
  readonly bearer?: string;
  /**
   * Per-caller headers (a token exchange): called before each upstream HTTP request with the
   * downstream caller's `AuthInfo`, and with undefined for the proxy's own listing session.
   * What it returns is added to `headers`/`bearer`.
   */
  readonly credentials?: UpstreamCredentials;
  /** The `fetch` upstream requests use (default: the platform's). */
  readonly fetch?: typeof globalThis.fetch;
}

/** An upstream started as a child process, spoken to over stdio. */
export interface ProxyStdioOptions extends ProxyCommonOptions {
  /** The program to start, e.g. `'npx'` or `process.execPath`. */
  readonly command: string;
  /** Its arguments, e.g. `['-y', '@modelcontextprotocol/server-everything']`. */
  readonly args?: readonly string[];
  /** The child's environment: added to the SDK's safe defaults (PATH, HOME, ...); the parent's other variables are not passed on. */
  readonly env?: Readonly<Record<string, string>>;
  /** Its working directory (default: this process's). */
  readonly cwd?: string;
  /** The child's stderr (default `'inherit'`). */
  readonly stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** `proxyServer()`'s options: an upstream URL, or a command to start. */
export type ProxyOptions = ProxyHttpOptions | ProxyStdioOptions;
