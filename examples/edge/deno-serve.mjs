// The app itself as Deno's server: `deno serve --unstable-no-legacy-abort --allow-net --allow-read --allow-env --allow-sys --host 127.0.0.1 deno-serve.mjs`.
// `deno serve` serves a module's default export's `fetch`, and an App has one (`app.fetch`: the
// fetch handler with its defaults). It runs what tsc emitted (dist/): build first with `npm run build`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { createEdgeApp } = require('./dist/app.js');

export default await createEdgeApp();
