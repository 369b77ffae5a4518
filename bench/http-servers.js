#!/usr/bin/env node
'use strict';
// The servers bench/http-load.js compares, run as forked children:
//   node bench/http-servers.js toolwright MODE -> the weather example's tools + count_to, via app.listen({ transport: 'http' })
//   node bench/http-servers.js raw MODE        -> the same tools by hand on the SDK v1: node:http + StreamableHTTPServerTransport
//   node bench/http-servers.js raw-v2 MODE     -> the same tools by hand on the SDK v2 (@modelcontextprotocol/server + /node)
//   node bench/http-servers.js toolwright-fetch MODE -> the Toolwright app through createFetchHandler, behind a Node adapter
//   node bench/http-servers.js raw-v2-fetch MODE     -> the hand-written SDK v2 server through the SDK's own web-standard
//                                                        handlers (createMcpHandler; WebStandardStreamableHTTPServerTransport
//                                                        per session), behind the same Node adapter
// The Node adapter of both fetch kinds is @hono/node-server's getRequestListener (node request -> Request, Response -> node).
// MODE is `stateful` (one Server + transport per session, the SDKs' documented pattern) or
// `stateless` (a Server per request, no sessions; on v2, createMcpHandler, which also serves
// 2026-07-28 requests). Each reports its URL over IPC and answers { type: 'stats' } with heap
// (after gc), CPU and session count.
// TOOLWRIGHT_ROOT=<checkout> loads @toolwright/* and the weather example from that checkout's
// build instead of this one (http-load.js --compare <checkout> sets it for its second Toolwright server).

require('reflect-metadata');
const http = require('node:http');
const path = require('node:path');
const { createRequire } = require('node:module');
const { randomUUID } = require('node:crypto');

const TOOLWRIGHT_ROOT = path.resolve(process.env.TOOLWRIGHT_ROOT || path.join(__dirname, '..'));
const fromRoot = createRequire(path.join(TOOLWRIGHT_ROOT, 'package.json'));

const kind = process.argv[2];
const stateless = process.argv[3] === 'stateless';
process.on('SIGINT', () => process.exit(0));

function countTo(n, tag, progress) {
  return (async () => {
    for (let i = 1; i <= n; i++) await progress(i, n, `${tag} ${i}/${n}`);
    return `${tag} counted to ${n}`;
  })();
}

/** The Toolwright app every Toolwright kind serves. */
async function toolwrightApp() {
  const { Ctx, Param, Tool } = fromRoot('@toolwright/core');
  const { createApp } = fromRoot('@toolwright/server');
  const { WeatherTools } = fromRoot('./examples/weather/dist/weather.tools.js');
  const { NotesTools } = fromRoot('./examples/weather/dist/notes.tools.js');
  class ProgressTools {
    countTo(n, tag, ctx) {
      return countTo(n, tag, (i, total, message) => ctx.progress(i, total, message));
    }
  }
  Param('n', { type: () => Number })(ProgressTools.prototype, 'countTo', 0);
  Param('tag', { type: () => String })(ProgressTools.prototype, 'countTo', 1);
  Ctx()(ProgressTools.prototype, 'countTo', 2);
  Tool({ description: 'Counts to n, reporting progress tagged with tag.' })(ProgressTools.prototype, 'countTo', Object.getOwnPropertyDescriptor(ProgressTools.prototype, 'countTo'));
  return createApp({ name: 'weather', version: '1.0.0', tools: [WeatherTools, NotesTools, ProgressTools] });
}

async function toolwright() {
  const app = await toolwrightApp();
  const listener = await app.listen({
    transport: 'http',
    port: 0,
    requestLogLevel: 'warn',
    exitOnSignal: false,
    sessions: { maxSessions: 10000 },
    stateless,
    ...JSON.parse(process.env.TW_OPTS || '{}'),
  });
  return { url: listener.url, sessions: () => listener.sessionCount };
}

/** The hand-written tools, shared by both raw servers; `progress(progress, total, message)` reports on the call. */
function rawTools() {
  const { TOOLS } = require('./tools.js');
  const tools = [
    ...TOOLS,
    {
      name: 'count_to',
      description: 'Counts to n, reporting progress tagged with tag.',
      inputSchema: { type: 'object', properties: { n: { type: 'number' }, tag: { type: 'string' } }, required: ['n', 'tag'], additionalProperties: false },
    },
  ];
  const text = (t) => ({ content: [{ type: 'text', text: t }] });
  const fail = (t) => ({ content: [{ type: 'text', text: t }], isError: true });
  const READINGS = { tokyo: { temperature: 22, conditions: 'partly cloudy', humidity: 65 }, london: { temperature: 14, conditions: 'rainy', humidity: 80 } };
  const handlers = {
    get_weather(a) {
      if (typeof a.location !== 'string' || a.location.length < 1) return fail('Invalid arguments: location must be a non-empty string');
      const now = READINGS[a.location.trim().toLowerCase()];
      return now ? text(JSON.stringify({ location: a.location, ...now, unit: 'celsius' })) : fail(`No weather data for '${a.location}'.`);
    },
    calculate(a) {
      const { operation, a: x, b: y } = a;
      if (!['add', 'subtract', 'multiply', 'divide'].includes(operation) || typeof x !== 'number' || typeof y !== 'number') return fail('Invalid arguments');
      const r = operation === 'add' ? x + y : operation === 'subtract' ? x - y : operation === 'multiply' ? x * y : y === 0 ? NaN : x / y;
      return text(`${x} ${operation} ${y} = ${r}`);
    },
    async count_to(a, progress) {
      if (typeof a.n !== 'number' || typeof a.tag !== 'string') return fail('Invalid arguments');
      return text(await countTo(a.n, a.tag, progress));
    },
  };
  return { tools, handlers };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
      } catch (e) {
        reject(e);
      }
    });
  });
}

const badSession = (res, status) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad session' }, id: null }));

/**
 * Stateful: a Server + transport per session, created on initialize (the SDKs' documented pattern).
 * Stateless (v1 only; v2 uses createMcpHandler): a Server + transport per POST.
 */
async function listenRaw({ newServer, newTransport, isInitializeRequest }) {
  const transports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    try {
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      if (stateless) {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const transport = newTransport({ sessionIdGenerator: undefined });
        const server = newServer();
        res.on('close', () => {
          transport.close();
          server.close();
        });
        await server.connect(transport);
        return void (await transport.handleRequest(req, res, body));
      }
      const sid = req.headers['mcp-session-id'];
      let transport = sid ? transports.get(sid) : undefined;
      if (!transport) {
        if (sid || req.method !== 'POST' || !isInitializeRequest(body)) return void badSession(res, sid ? 404 : 400);
        transport = newTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, transport) });
        transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
        await newServer().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${httpServer.address().port}/mcp`, sessions: () => transports.size };
}

/** The hand-written server on the SDK v1. */
function raw() {
  const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
  const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { ListToolsRequestSchema, CallToolRequestSchema, McpError, ErrorCode, isInitializeRequest } = require('@modelcontextprotocol/sdk/types.js');
  const { tools, handlers } = rawTools();
  const newServer = () => {
    const server = new Server({ name: 'raw-weather', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
      const handler = handlers[req.params.name];
      if (!handler) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
      const token = extra._meta?.progressToken;
      return handler(req.params.arguments ?? {}, (progress, total, message) =>
        token === undefined ? undefined : extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } }),
      );
    });
    return server;
  };
  return listenRaw({ newServer, newTransport: (options) => new StreamableHTTPServerTransport(options), isInitializeRequest });
}

/** A factory of the hand-written server on the SDK v2 (a new `Server` per call). */
function rawV2Server() {
  const { Server, ProtocolError, ProtocolErrorCode } = require('@modelcontextprotocol/server');
  const { tools, handlers } = rawTools();
  return () => {
    const server = new Server({ name: 'raw-weather-v2', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools }));
    server.setRequestHandler('tools/call', (req, ctx) => {
      const handler = handlers[req.params.name];
      if (!handler) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
      const token = ctx.mcpReq._meta?.progressToken;
      return handler(req.params.arguments ?? {}, (progress, total, message) =>
        token === undefined ? undefined : ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } }),
      );
    });
    return server;
  };
}

/** The same server on the SDK v2: stateful like v1; stateless through createMcpHandler, which serves both eras. */
async function rawV2() {
  const { createMcpHandler, isInitializeRequest } = require('@modelcontextprotocol/server');
  const { NodeStreamableHTTPServerTransport, toNodeHandler } = require('@modelcontextprotocol/node');
  const newServer = rawV2Server();
  if (!stateless) return listenRaw({ newServer, newTransport: (options) => new NodeStreamableHTTPServerTransport(options), isInitializeRequest });
  const handle = toNodeHandler(createMcpHandler(newServer, { legacy: 'stateless' }));
  const httpServer = http.createServer((req, res) => void handle(req, res));
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${httpServer.address().port}/mcp`, sessions: () => 0 };
}

/**
 * Serves a web-standard handler on node through @hono/node-server's adapter, the way a team
 * running a fetch handler on node would; the client's address is kept by request, for the
 * handlers that count anonymous callers by it.
 */
async function listenFetch(handle, addresses) {
  const { getRequestListener } = require('@hono/node-server');
  const listener = getRequestListener((request, env) => {
    addresses?.set(request, env.incoming.socket.remoteAddress);
    return handle(request);
  });
  const httpServer = http.createServer(listener);
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${httpServer.address().port}/mcp`;
}

/** The Toolwright app through its fetch handler (`createFetchHandler`), behind the Node adapter. */
async function toolwrightFetch() {
  const { createFetchHandler } = fromRoot('@toolwright/server/fetch');
  const app = await toolwrightApp();
  await app.start();
  const addresses = new WeakMap();
  const handler = createFetchHandler(app, {
    stateless,
    sessions: { maxSessions: 10000, clientAddressOf: (request) => addresses.get(request) },
    ...JSON.parse(process.env.TW_OPTS || '{}'),
  });
  return { url: await listenFetch(handler, addresses), sessions: () => handler.sessionCount };
}

/**
 * The hand-written SDK v2 server through the SDK's own web-standard handlers, behind the same
 * adapter: `createMcpHandler(...).fetch` (both eras, a server per request) when stateless; when
 * stateful, a `WebStandardStreamableHTTPServerTransport` and `Server` per session (the SDK's
 * documented pattern).
 */
async function rawV2Fetch() {
  const { createMcpHandler, isInitializeRequest, WebStandardStreamableHTTPServerTransport } = require('@modelcontextprotocol/server');
  const newServer = rawV2Server();
  if (stateless) {
    const handler = createMcpHandler(newServer, { legacy: 'stateless' });
    return { url: await listenFetch((request) => handler.fetch(request)), sessions: () => 0 };
  }
  const transports = new Map();
  const refuse = (status) => Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad session' }, id: null }, { status });
  const url = await listenFetch(async (request) => {
    const sid = request.headers.get('mcp-session-id');
    const existing = sid ? transports.get(sid) : undefined;
    if (existing) return existing.handleRequest(request);
    if (sid || request.method !== 'POST') return refuse(sid ? 404 : 400);
    const body = await request.json();
    if (!isInitializeRequest(body)) return refuse(400);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, transport) });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await newServer().connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  });
  return { url, sessions: () => transports.size };
}

const SERVERS = { toolwright, raw, 'raw-v2': rawV2, 'toolwright-fetch': toolwrightFetch, 'raw-v2-fetch': rawV2Fetch };

SERVERS[kind]().then(
  (server) => {
    process.on('message', async (message) => {
      if (message.type !== 'stats') return;
      for (let i = 0; i < 4; i++) {
        global.gc?.();
        await new Promise((r) => setTimeout(r, 25));
      }
      const cpu = process.cpuUsage();
      process.send({ type: 'stats', heapUsed: process.memoryUsage().heapUsed, cpuMicros: cpu.user + cpu.system, sessions: server.sessions() });
    });
    process.send({ type: 'ready', url: server.url });
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
