#!/usr/bin/env node
// Two example apps under one endpoint: the conformance example, and the weather example mounted
// into it with `app.mount()` under the namespace `weather` (its tools are `weather_get_weather`,
// `weather_calculate`, ...). `npm run test:conformance` runs the suite's required scenarios
// against it (the `mounted` target), so mounting is checked against the official suite.
// `node serve-conformance-mounted.js <port>` (0: any free port; the `listening` log line on stderr says which);
// both examples built (dist/) first.
'use strict';
require('reflect-metadata');
const { join } = require('node:path');
const { createConformanceApp } = require(join(__dirname, '..', 'dist', 'app.js'));
const { createWeatherApp } = require(join(__dirname, '..', '..', 'weather', 'dist', 'app.js'));

async function main() {
  const port = /^\d{1,5}$/.test(process.argv[2] ?? '') ? Number(process.argv[2]) : Number.NaN;
  if (!(port <= 65535)) throw new Error('usage: node serve-conformance-mounted.js <port> (0-65535; 0: any free port)');
  const app = await createConformanceApp();
  await app.mount({ app: await createWeatherApp(), namespace: 'weather' });
  await app.listen({ transport: 'http', port, host: '127.0.0.1', sseRetryMs: 500 });
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
