#!/usr/bin/env node
import '@toolwright/server/compile-cache'; // first: the modules loaded after it start from a code cache
import 'reflect-metadata';
import { parseListenArgs } from '@toolwright/server';
import { {{appFactory}} } from './app';
import { tokenAuth } from './auth';

// `node dist/server.js --http --port 3000` serves Streamable HTTP at /mcp, with health checks at
// /healthz and /readyz; set MCP_TOKENS to require a bearer token. Without flags: stdio.
{{appFactory}}()
  .then((app) => {
    const listen = parseListenArgs();
    if (listen.transport === 'stdio') return app.listen(listen);
    // Without MCP_RESOURCE_URL the resource is the URL the server listens on (the real port, even with --port 0).
    return app.listen({ ...listen, auth: tokenAuth(process.env, process.env.MCP_RESOURCE_URL) });
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
