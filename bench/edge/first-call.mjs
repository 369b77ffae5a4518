// Where a cold start's time goes on node, Deno or Bun, step by step, for one handler of
// bench/edge per process: loading its modules, then for Toolwright createApp and
// createFetchHandler, then the first and second tools/call of the 2026-07-28 era.
//   node bench/edge/first-call.mjs <toolwright|sdk>
//   deno run --allow-all bench/edge/first-call.mjs <toolwright|sdk>
//   bun bench/edge/first-call.mjs <toolwright|sdk>
// Milliseconds; the steps are a few ms long, so run each a few times, on a quiet machine.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const kind = (globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2))[0];
if (kind !== 'toolwright' && kind !== 'sdk') throw new Error('usage: first-call.mjs <toolwright|sdk>');
const { ERAS } = require('./requests.js');
const { body, headers } = ERAS['2026-07-28'];
const request = () => new Request('http://127.0.0.1/mcp', { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });

let app;
let serve;
const steps =
  kind === 'sdk'
    ? [
        ['modules', () => require('@modelcontextprotocol/server')],
        ['handler', () => (serve = require('./sdkHandler.js').sdk(require('@modelcontextprotocol/server')))],
      ]
    : [
        [
          'modules',
          () => {
            require('reflect-metadata');
            require('@toolwright/server');
            require('@toolwright/server/fetch');
            require('../../examples/weather/dist/weather.tools.js');
            require('../../examples/weather/dist/notes.tools.js');
          },
        ],
        [
          'createApp',
          async () =>
            (app = await require('@toolwright/server').createApp({
              name: 'weather',
              version: '1.0.0',
              tools: [require('../../examples/weather/dist/weather.tools.js').WeatherTools, require('../../examples/weather/dist/notes.tools.js').NotesTools],
            })),
        ],
        ['createFetchHandler', () => (serve = require('@toolwright/server/fetch').createFetchHandler(app, { stateless: true }))],
      ];
steps.push(['first call', async () => (await serve(request())).text()], ['second call', async () => (await serve(request())).text()]);

const times = [];
for (const [label, step] of steps) {
  const began = performance.now();
  await step();
  times.push(`${label} ${(performance.now() - began).toFixed(1)}`);
}
console.log(`${kind}: ${times.join(' | ')}`);
