/** A JSON-RPC error answer from the server (a protocol error, not a tool error). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${message} (JSON-RPC error ${code})`);
    this.name = 'RpcError';
  }
}
