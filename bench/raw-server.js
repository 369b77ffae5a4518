#!/usr/bin/env node
'use strict';
// Hand-written MCP server on the SDK v1's low-level Server, exposing the same
// 4 tools as the Toolwright weather example (bench/rawTools.js). Baseline for bench/run.js.

const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { ListToolsRequestSchema, CallToolRequestSchema, McpError, ErrorCode } = require('@modelcontextprotocol/sdk/types.js');
const { TOOLS } = require('./tools.js');
const { callTool } = require('./rawTools.js');

const server = new Server({ name: 'raw-weather', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));

server.setRequestHandler(CallToolRequestSchema, (req) => {
  const result = callTool(req.params.name, req.params.arguments);
  if (!result) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
  return result;
});

process.stdin.on('close', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));

server.connect(new StdioServerTransport()).catch((err) => {
  console.error('raw-server failed to start:', err);
  process.exit(1);
});
