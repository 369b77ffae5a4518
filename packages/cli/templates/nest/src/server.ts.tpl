#!/usr/bin/env node
import '@toolwright/server/compile-cache'; // first: the modules loaded after it start from a code cache
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { parseListenArgs } from '@toolwright/server';
import { ToolwrightServer } from '@toolwright/nestjs';
import { {{appFactory}} } from './app';
import { AppModule } from './app.module';

// `node dist/server.js --http --port 3000` serves the Nest app: GET /todos and the MCP endpoint
// /mcp. Without flags: the same tools over stdio (local clients, toolwright call and inspect),
// from an application context with Nest's logger off, since stdout belongs to the protocol.
async function main(): Promise<void> {
  const listen = parseListenArgs();
  if (listen.transport === 'stdio') {
    const context = await NestFactory.createApplicationContext(AppModule, { logger: false });
    await context.get(ToolwrightServer).app.listen(listen);
    return;
  }
  const nest = await {{appFactory}}({ logger: ['error', 'warn'] });
  nest.enableShutdownHooks(); // SIGTERM: running calls drain, sessions end, then the server closes
  const host = listen.host ?? '127.0.0.1';
  await nest.listen(listen.port ?? 3000, host);
  const address = nest.getHttpServer().address() as { port: number };
  console.error(`listening on http://${host}:${address.port}/mcp`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
