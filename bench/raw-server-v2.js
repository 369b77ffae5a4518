#!/usr/bin/env node
'use strict';
// The same hand-written server as bench/raw-server.js, on the SDK v2 (@modelcontextprotocol/server):
// its low-level Server with the same tools (bench/rawTools.js), served by serveStdio, which
// serves both protocol eras from one factory (the connection's first request picks the era).
// Second baseline for bench/run.js.

const { Server, ProtocolError, ProtocolErrorCode } = require('@modelcontextprotocol/server');
const { serveStdio } = require('@modelcontextprotocol/server/stdio');
const { TOOLS } = require('./tools.js');
const { callTool } = require('./rawTools.js');

/** One Server per connection, as the SDK asks of a factory. */
function newServer() {
  const server = new Server({ name: 'raw-weather-v2', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
  server.setRequestHandler('tools/call', (req) => {
    const result = callTool(req.params.name, req.params.arguments);
    if (!result) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    return result;
  });
  return server;
}

process.stdin.on('close', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));

serveStdio(newServer, { onerror: (err) => console.error('raw-server-v2:', err) });
