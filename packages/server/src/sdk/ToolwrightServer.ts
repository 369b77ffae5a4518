import { ToolwrightError, type AuthInfo } from '@toolwright/core';
import { Server, type JSONRPCMessage, type JSONRPCRequest, type MessageExtraInfo, type Result, type ServerContext, type Transport } from '@modelcontextprotocol/server';
import { attachAuthInfo } from './attachAuthInfo';
import { paramsProblem } from '../rpc/paramsProblem';
import { ErrorCodes, ProtocolError } from './ProtocolError';

/** What a `ToolwrightServer` adds to the SDK's `Server` when it connects. */
export interface ToolwrightServerOptions {
  /** Every request comes from this caller (stdio: the identity the process that started the server vouches for), whichever entry connects it. */
  readonly caller?: AuthInfo;
  /**
   * Reads the transport's messages before the SDK's `onmessage` (`toSdk`), which it hands
   * every message it does not answer itself: the app's fast paths (see `FastPaths`).
   */
  readonly intercept?: (transport: Transport, toSdk: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void, onerror: (error: Error) => void) => void;
}

/** The SDK's `Server`, with Toolwright's additions to each transport it connects to. */
export class ToolwrightServer extends Server {
  /** Told of each transport this server is connected to, before it serves it. */
  onconnect?: (transport: Transport) => void;
  /** What its closing leaves to finish once the transport closed (a session's services' `dispose()`): `close()` waits for it. */
  afterClose?: () => Promise<void> | undefined;

  constructor(
    private readonly additions: ToolwrightServerOptions,
    ...args: ConstructorParameters<typeof Server>
  ) {
    super(...args);
  }

  /**
   * Every handler the SDK dispatches a request to first checks the request's params against
   * its method, so a client that sends bad params hears -32602 and what to fix (the SDK's own
   * parse answers -32603 with a dump of schema issues). The SDK has decided by then that the
   * method exists in the request's era: nothing is answered here that the SDK would not dispatch.
   */
  protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) => {
      const problem = paramsProblem(method, request.params);
      if (problem) throw new ProtocolError(ErrorCodes.InvalidParams, problem);
      return wrapped(request, ctx);
    };
  }

  override async close(): Promise<void> {
    await super.close();
    await this.afterClose?.();
  }

  override async connect(transport: Transport): Promise<void> {
    this.onconnect?.(transport);
    const connecting = super.connect(transport);
    // The SDK installs its `onmessage` before its first await; a refused connect leaves the transport alone.
    if (this.transport === transport && transport.onmessage) {
      const report = (error: Error) => this.onerror?.(error);
      const toSdk = reporting(transport.onmessage, report);
      transport.onmessage = toSdk;
      this.additions.intercept?.(transport, toSdk, report);
    }
    await connecting;
    if (this.additions.caller) attachAuthInfo(transport, this.additions.caller);
  }
}

/**
 * The SDK's `onmessage`, kept from throwing into the transport for a client's response (to a
 * request the server sent it): what it throws goes to `report`. It throws on a response to an id
 * the server never sent that nests a few thousand levels (it words its "unknown message ID"
 * report with `JSON.stringify`), and the transport answered for it: the Node listener with HTTP
 * 500 and the rest of the POST's batch unread, the SDK's web transport with 400 and the
 * `RangeError` in the error's `data`. Nothing waits for such a response, so it is reported as
 * the SDK reports an unknown id, and the transport carries on. Requests and notifications go
 * through as they are.
 */
function reporting(deliver: NonNullable<Transport['onmessage']>, report: (error: Error) => void): NonNullable<Transport['onmessage']> {
  return (message, extra) => {
    if ('method' in message) return deliver(message, extra);
    try {
      deliver(message, extra);
    } catch (error) {
      report(error instanceof Error ? error : new ToolwrightError(`The SDK threw while reading a response: ${String(error)}`, { cause: error }));
    }
  };
}
