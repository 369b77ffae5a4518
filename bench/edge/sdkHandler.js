'use strict';
// The SDK's side of bench/edge (see handlers.js): the same four tools by hand (bench/tools.js +
// bench/rawTools.js) on the SDK v2's own createMcpHandler(...).fetch, a Server per request, both eras.
// It is given the SDK's exports: required in handlers.js (node, Deno, Bun), imported by name in its
// Worker (build-workers.mjs), as an app written in ES modules imports them, so a bundler can leave
// out what it does not use.

function sdk({ Server, ProtocolError, ProtocolErrorCode, createMcpHandler }) {
  const { TOOLS } = require('../tools.js');
  const { callTool } = require('../rawTools.js');
  const newServer = () => {
    const server = new Server({ name: 'raw-weather-v2', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
    server.setRequestHandler('tools/call', (req) => {
      const result = callTool(req.params.name, req.params.arguments);
      if (!result) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
      return result;
    });
    return server;
  };
  let handler;
  return (request) => {
    handler ??= createMcpHandler(newServer, { legacy: 'stateless' });
    return handler.fetch(request);
  };
}

module.exports = { sdk };
