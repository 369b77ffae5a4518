#!/usr/bin/env node
import '@toolwright/server/compile-cache'; // first: the modules loaded after it start from a code cache
import 'reflect-metadata';
import { parseListenArgs } from '@toolwright/server';
import { {{appFactory}} } from './app';

// `node dist/server.js --http --port 3000` serves /mcp and, beside it, the OAuth authorization
// server MCP clients sign in with (issuer MCP_ISSUER, default http://127.0.0.1:<port>). Without
// flags: the same tools over stdio, for local clients, toolwright call and inspect (no sign-in).
async function main(): Promise<void> {
  const listen = parseListenArgs();
  if (listen.transport === 'stdio') {
    await (await {{appFactory}}()).listen(listen);
    return;
  }
  const port = listen.port ?? 3000;
  const issuer = process.env.MCP_ISSUER ?? `http://127.0.0.1:${port}`;
  // listen() logs one line on stderr once the port is open: {"msg":"listening","url":"http://127.0.0.1:3000/mcp",...}.
  await (await {{appFactory}}(issuer)).listen({ ...listen, port });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
