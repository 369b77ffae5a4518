#!/usr/bin/env node
// Two example apps under one endpoint: the conformance example, and the weather example mounted
// into it with `app.mount()` under the namespace `weather` (its tools are `weather_get_weather`,
// `weather_calculate`, ...). `npm run test:conformance` runs the suite's required scenarios
// against it (the `mounted` target), so mounting is checked against the official suite.
// `node serve-conformance-mounted.js <port>`; both examples built (dist/) first.
'use strict';
require('reflect-metadata');
const { join } = require('node:path');
const { createConformanceApp } = require(join(__dirname, '..', 'dist', 'app.js'));
const { createWeatherApp } = require(join(__dirname, '..', '..', 'weather', 'dist', 'app.js'));

async function main() {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: node serve-conformance-mounted.js <port>');
  const app = await createConformanceApp();
  await app.mount({ app: await createWeatherApp(), namespace: 'weather' });
  await app.listen({ transport: 'http', port, host: '127.0.0.1', sseRetryMs: 500 });
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
