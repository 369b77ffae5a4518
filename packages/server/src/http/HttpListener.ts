import type { Listener } from '../serving/Listener';

/** A running HTTP listener. */
export interface HttpListener extends Listener {
  /** The MCP endpoint's URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** The bound port (useful with `port: 0`). */
  readonly port: number;
  readonly host: string;
  /** Live stateful sessions. */
  readonly sessionCount: number;
}
