#!/usr/bin/env node
import '@toolwright/server/compile-cache'; // first: the modules loaded after it start from a code cache
import 'reflect-metadata';
import { parseListenArgs } from '@toolwright/server';
import { {{appFactory}} } from './app';
import { tokenAuth } from './auth';

// `node dist/server.js --http --port 3000` serves Streamable HTTP at /mcp, with health checks at
// /healthz and /readyz. It requires a bearer token from MCP_TOKENS, and refuses to start without
// one unless MCP_ALLOW_ANONYMOUS=1 (see auth.ts). Without flags: stdio, which has no tokens.
{{appFactory}}()
  .then((app) => {
    const listen = parseListenArgs();
    if (listen.transport === 'stdio') return app.listen(listen);
    // Without MCP_RESOURCE_URL the resource is the URL the server listens on (the real port, even with --port 0).
    const auth = tokenAuth(process.env, process.env.MCP_RESOURCE_URL);
    if (!auth) console.error('MCP_ALLOW_ANONYMOUS=1: serving HTTP without authentication; every caller that reaches the port can call every tool.');
    return app.listen({ ...listen, auth });
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
