#!/usr/bin/env node
import '@toolwright/server/compile-cache'; // first: the modules loaded after it start from a code cache
import 'reflect-metadata';
import { parseListenArgs } from '@toolwright/server';
import { createConformanceApp } from './app';

// `node dist/server.js` serves stdio; `--http --port 3000` serves Streamable HTTP, telling
// clients to wait half a second before they reconnect to a stream the server closed.
const listen = parseListenArgs();
createConformanceApp()
  .then((app) => app.listen(listen.transport === 'http' ? { ...listen, sseRetryMs: 500 } : listen))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
