'use strict';
// A minimal Streamable HTTP MCP client for load generation: node:http with one keep-alive
// socket per session, no schema validation. The SDK's client costs ~3x the server's CPU
// per call, so with it a 2-core machine measures the load generator, not the servers.
// `legacy` era: initialize, then the session's calls (DELETE at the end when there is a
// session). `modern` era (2026-07-28): no handshake; every request carries the `_meta`
// envelope and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers.

const http = require('node:http');

class LeanSession {
  constructor(url, name, era = 'legacy') {
    this.url = new URL(url);
    this.name = name;
    this.era = era;
    this.envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name, version: '1' },
    };
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.nextId = 1;
    this.sessionId = undefined;
    this.version = undefined;
  }

  /** Sends one JSON-RPC message; resolves with every message of the answer (JSON body or SSE stream). */
  send(message, method = 'POST', extraHeaders = {}) {
    return new Promise((resolve, reject) => {
      const body = message === undefined ? '' : JSON.stringify(message);
      const headers = { accept: 'application/json, text/event-stream', ...extraHeaders };
      if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
      if (this.version) headers['mcp-protocol-version'] = this.version;
      const req = http.request(this.url, { method, agent: this.agent, headers }, (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (data += chunk));
        res.on('end', () => {
          if (res.headers['mcp-session-id']) this.sessionId = res.headers['mcp-session-id'];
          if (res.statusCode >= 400) return reject(new Error(`HTTP ${res.statusCode}: ${data.slice(0, 200)}`));
          if (!data) return resolve([]);
          if (String(res.headers['content-type']).startsWith('text/event-stream')) {
            // One JSON message per `data:` line; priming events carry empty data.
            return resolve(
              data
                .split('\n')
                .filter((l) => l.startsWith('data:') && l.length > 6)
                .map((l) => JSON.parse(l.slice(5))),
            );
          }
          return resolve([].concat(JSON.parse(data)));
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** A request; resolves with its result and the notifications that came on its stream. */
  async request(method, params = {}) {
    const id = this.nextId++;
    const messages =
      this.era === 'modern'
        ? await this.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...params._meta, ...this.envelope } } }, 'POST', {
            'mcp-method': method,
            ...(params.name !== undefined && { 'mcp-name': params.name }),
          })
        : await this.send({ jsonrpc: '2.0', id, method, params });
    const response = messages.find((m) => m.id === id && ('result' in m || 'error' in m));
    if (!response) throw new Error(`no response to ${method} #${id}`);
    if (response.error) throw new Error(`${method}: ${response.error.code} ${response.error.message}`);
    return { result: response.result, notifications: messages.filter((m) => m.method !== undefined) };
  }

  async open() {
    if (this.era === 'modern') {
      this.version = '2026-07-28';
      return;
    }
    const { result } = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: this.name, version: '1' } });
    this.version = result.protocolVersion;
    await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Ends the session (DELETE), if there is one, and its socket. */
  async close() {
    if (this.sessionId) await this.send(undefined, 'DELETE');
    this.agent.destroy();
  }
}

module.exports = { LeanSession };
