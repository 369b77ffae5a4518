import { ToolwrightError } from '@toolwright/core';

/**
 * A JSON-RPC error to send as is. The SDK puts a thrown error's integer `code`, its
 * `message` and its `data` on the wire; unlike the SDK's `McpError`, this adds no
 * "MCP error -32602:" prefix to the message. One code changes on the way out: the SDK sends
 * `ErrorCodes.ResourceNotFound` (-32002) as -32602 to clients of both eras, with the same
 * message and `data` (give it `{ uri }`).
 */
export class ProtocolError extends ToolwrightError {
  static override readonly KIND = 'protocol' as const;

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** JSON-RPC and MCP error codes used by Toolwright. */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Sent as -32602 by the SDK (see ProtocolError): clients tell it apart by `data.uri`. */
  ResourceNotFound: -32002,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingClientCapability: -32021,
} as const;
