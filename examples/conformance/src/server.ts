#!/usr/bin/env node
import 'reflect-metadata';
import { parseListenArgs } from '@toolwright/server';
import { createConformanceApp } from './app';

// `node dist/server.js` serves stdio; `--http --port 3000` serves Streamable HTTP.
createConformanceApp()
  .then((app) => app.listen(parseListenArgs()))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
