#!/usr/bin/env node
import '@toolwright/server/compile-cache'; // first: the modules loaded after it start from a code cache
import 'reflect-metadata';
import { parseListenArgs } from '@toolwright/server';
import { createMcpApp } from './app';

// `node dist/server.js` serves stdio; `--http --port 3000` serves Streamable HTTP.
createMcpApp()
  .then((app) => app.listen(parseListenArgs()))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
