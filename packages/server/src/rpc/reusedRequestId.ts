/** A JSON-RPC request id (the ground floor does not import the SDK's types). */
type RequestId = string | number;

/**
 * The first of a POST's request ids that a request of the same session still holds (it is not
 * answered yet), or that the POST holds twice; undefined when every id is free. Answers are
 * routed by id, so a second request with a taken id could never be answered: the SDK's
 * transports leave its POST waiting for ever.
 */
export function reusedRequestId(ids: readonly RequestId[], running: { has(id: RequestId): boolean }): RequestId | undefined {
  return ids.find((id, i) => running.has(id) || ids.indexOf(id) !== i);
}

/** The -32600 message of a POST that reuses `id` (HTTP 400, with `id: null`: the id is the running request's). */
export function reusedRequestIdMessage(id: RequestId): string {
  return `Invalid Request: request id ${JSON.stringify(id)} is already used by a request of this session that is not answered yet. Give every request its own id.`;
}
