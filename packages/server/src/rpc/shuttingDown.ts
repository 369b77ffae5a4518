/**
 * The JSON-RPC server-error code of a request refused, or a call abandoned, because the server
 * is stopping (its drain timeout passed): the same on stdio, the node listener and the fetch
 * handler, in both eras.
 */
export const SHUTTING_DOWN = -32000;
