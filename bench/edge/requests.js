// The requests both edge benches send: one tools/call of get_weather per era, body and headers.
'use strict';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-edge', version: '1' },
};
const ARGS = { location: 'Tokyo' };
const ERAS = {
  '2026-07-28': {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: ARGS, _meta: ENVELOPE } }),
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_weather' },
  },
  // Stateless 2025-11-25: a call needs no session (each request stands alone).
  '2025-11-25': {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: ARGS } }),
    headers: { 'mcp-protocol-version': '2025-11-25' },
  },
};

module.exports = { ERAS };
