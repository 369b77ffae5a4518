// What the soak's clients send (bench/soak.js), and bench/heap-trend.js with them: the well-behaved
// requests of both eras, the hostile frames, and how a client answers what the server asks.
'use strict';

const VERSION = '2025-11-25';
const MODERN = '2026-07-28';
const ACCEPT = 'application/json, text/event-stream';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1' },
};

const GOOD = [
  { method: 'tools/list' },
  { method: 'tools/call', params: { name: 'weather', arguments: { location: 'Tokyo' } } },
  { method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } },
  { method: 'tools/call', params: { name: 'weather', arguments: { location: 42 } } },
  { method: 'tools/call', params: { name: 'ask', arguments: {} } },
  { method: 'tools/call', params: { name: 'pick', arguments: {} } },
  { method: 'no/such/method' },
];
/** A request of the era: 2026-07-28 requests carry the envelope in `params._meta`. */
const inEra = (modern, request) => (modern ? { ...request, params: { ...(request.params ?? {}), _meta: ENVELOPE } } : request);
/** The HTTP headers a 2026-07-28 request carries. */
const modernHeaders = (request) => ({
  'mcp-protocol-version': MODERN,
  'mcp-method': request.method,
  ...(request.method === 'tools/call' && { 'mcp-name': request.params.name }),
});
/** What the client answers a server's request (or an input request) with. */
const answerTo = (method) =>
  method === 'sampling/createMessage'
    ? { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'soak' }
    : method === 'elicitation/create'
      ? { action: 'accept', content: { colour: 'blue' } }
      : {};
/** The retry of an input_required result: the same request with the answers and the state echoed. */
const retryOf = (request, result, id) => ({
  ...request,
  id,
  params: { ...request.params, inputResponses: Object.fromEntries(Object.entries(result.inputRequests).map(([key, r]) => [key, answerTo(r.method)])), requestState: result.requestState },
});
/** Frames the SDK rejects; `answered` is the id their answer must carry. */
const HOSTILE = [
  (id) => ({ text: `{"jsonrpc":"2.0","id":"${id}","method":"ping","extra":1}`, answered: id }),
  (id) => ({ text: `{"jsonrpc":"2.0","id":"${id}","method":"ping","params":[1]}`, answered: id }),
  (id) => ({ text: `{"jsonrpc":"2.0","id":"${id}","method":"resources/read","params":null}`, answered: id }),
  () => ({ text: '{"jsonrpc":"2.0","id":1e20,"method":"ping"}', answered: null }),
  () => ({ text: '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', answered: null }),
  () => ({ text: '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', answered: null }),
  () => ({ text: '{"jsonrpc":"2.0","id":', answered: null }),
  () => ({ text: '{"hello":"world"}', answered: null }),
];

module.exports = { VERSION, MODERN, ACCEPT, ENVELOPE, GOOD, HOSTILE, inEra, modernHeaders, answerTo, retryOf };
