#!/usr/bin/env node
import '@toolwright/server/compile-cache'; // first: the modules loaded after it start from a code cache
import 'reflect-metadata';
import { parseListenArgs } from '@toolwright/server';
import { {{appFactory}} } from './app';
import { createWeb } from './web';

// `node dist/server.js --http --port 3000` serves the Express app: /api/todos and the MCP
// endpoint /mcp. Without flags: the same tools over stdio (local clients, toolwright call and inspect).
async function main(): Promise<void> {
  const listen = parseListenArgs();
  if (listen.transport === 'stdio') {
    await (await {{appFactory}}()).listen(listen);
    return;
  }
  const { web, mcp } = await createWeb();
  const host = listen.host ?? '127.0.0.1';
  const server = web.listen(listen.port ?? 3000, host, (error?: Error) => {
    if (error) throw error;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : listen.port;
    console.error(`listening on http://${host}:${port}/mcp`);
  });
  const stop = () => void mcp.close().then(() => server.close());
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
