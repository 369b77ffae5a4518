'use strict';
// The two web-standard handlers bench/edge compares, each `(request: Request) => Promise<Response>`
// on every runtime (workerd, Deno, Bun), stateless (a Worker's isolates share no memory):
//   toolwright: the weather example's tools (tsc's output, decorator metadata included) through createFetchHandler
//   sdk:        the same tools by hand (bench/tools.js + bench/rawTools.js) on the SDK v2's own
//               createMcpHandler(...).fetch, a Server per request, both eras
// Each is built on its first request, as a Worker must. Three of the weather example's four tools:
// search_notes takes a DTO with class-transformer's @Type, which core loads with a require() of a
// computed name that a Worker bundle cannot hold (noted in bench/README.md).

require('reflect-metadata');

function toolwright() {
  const { createApp } = require('@toolwright/server');
  const { createFetchHandler } = require('@toolwright/server/fetch');
  const { WeatherTools } = require('../../examples/weather/dist/weather.tools.js');
  let handler;
  return (request) => {
    handler ??= createApp({ name: 'weather', version: '1.0.0', tools: [WeatherTools] }).then((app) => createFetchHandler(app, { stateless: true }));
    return handler.then((serve) => serve(request));
  };
}

function sdk() {
  const { Server, ProtocolError, ProtocolErrorCode, createMcpHandler } = require('@modelcontextprotocol/server');
  const TOOLS = require('../tools.js').TOOLS.filter((tool) => tool.name !== 'search_notes');
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

module.exports = { toolwright, sdk };
