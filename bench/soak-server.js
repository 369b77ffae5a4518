// The server the soak runs (bench/soak.js), in plain JavaScript: decorators applied by hand.
// Fast calls, a tool that asks the client's model (sampling) and one that asks the user
// (elicitation), in whichever era the client speaks. `--http` serves HTTP on a free port and
// prints {"url":...} on stderr; otherwise it serves stdio. Either way it prints its memory on
// stderr every few seconds (see reportMemory).
'use strict';
require('reflect-metadata');
const { Ctx, Param, Tool } = require('@toolwright/core');
const { createApp } = require('@toolwright/server');

class SoakTools {
  weather(location) {
    return { location, temperatureC: 21, conditions: 'clear' };
  }

  add(a, b) {
    return a + b;
  }

  async ask(ctx) {
    const result = await ctx.sample('Say something.');
    return `the client said: ${result.content.text}`;
  }

  async pick(ctx) {
    const answer = await ctx.elicit('Pick a colour.', { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] });
    return answer.action === 'accept' ? `picked ${answer.content.colour}` : `no pick: ${answer.action}`;
  }
}

const method = (name) => Object.getOwnPropertyDescriptor(SoakTools.prototype, name);
Param('location', { type: () => String })(SoakTools.prototype, 'weather', 0);
Tool({ description: 'Weather for a city.' })(SoakTools.prototype, 'weather', method('weather'));
Param('a', { type: () => Number })(SoakTools.prototype, 'add', 0);
Param('b', { type: () => Number })(SoakTools.prototype, 'add', 1);
Tool({ description: 'Adds two numbers.' })(SoakTools.prototype, 'add', method('add'));
Ctx()(SoakTools.prototype, 'ask', 0);
Tool({ description: "Asks the client's model (sampling)." })(SoakTools.prototype, 'ask', method('ask'));
Ctx()(SoakTools.prototype, 'pick', 0);
Tool({ description: 'Asks the user (elicitation).' })(SoakTools.prototype, 'pick', method('pick'));

/**
 * Every SOAK_MEMORY_MS (default 5000) the server prints its memory on stderr, one JSON line
 * (stdout belongs to the protocol over stdio): RSS, heap used (after a full GC when run with
 * --expose-gc, so garbage waiting for the collector is not read as growth), external and array
 * buffers, and, over HTTP, its live sessions.
 */
function reportMemory(listener) {
  const every = Number(process.env.SOAK_MEMORY_MS ?? 5000);
  const MiB = (n) => Math.round((n / 1048576) * 10) / 10;
  setInterval(() => {
    if (typeof global.gc === 'function') global.gc();
    const m = process.memoryUsage();
    const memory = {
      rss: MiB(m.rss),
      heapUsed: MiB(m.heapUsed),
      heapTotal: MiB(m.heapTotal),
      external: MiB(m.external),
      arrayBuffers: MiB(m.arrayBuffers),
      ...(http && { sessions: listener.sessionCount }),
    };
    process.stderr.write(`${JSON.stringify({ memory })}\n`);
  }, every).unref();
}

const http = process.argv.includes('--http');
/**
 * The soak's clients walk away from some sessions without ending them; they are closed after
 * this long idle. One minute, so their number is steady within a soak's warm-up (with the
 * default 30 minutes, they pile up to the session limits first). SOAK_SESSION_IDLE_MS changes it.
 */
const SESSION_IDLE_MS = Number(process.env.SOAK_SESSION_IDLE_MS ?? 60_000);
/**
 * Every soak client is anonymous and comes from 127.0.0.1: to the server they are one caller,
 * whose share of sessions and initialize rate (sessions.maxSessionsPerPrincipal,
 * sessions.initializeRate) would make it close its own busy sessions and refuse new ones. The
 * soak stands for many clients, so those per-caller limits are lifted; maxSessions still holds.
 */
const ONE_ADDRESS = { maxSessionsPerPrincipal: 1000, initializeRate: false };
createApp({ name: 'soak', version: '1.0.0', tools: [SoakTools] })
  .then((app) => app.listen(http ? { transport: 'http', port: 0, logLevel: 'silent', sessions: { idleTimeoutMs: SESSION_IDLE_MS, ...ONE_ADDRESS } } : { transport: 'stdio' }))
  .then((listener) => {
    if (http) process.stderr.write(`${JSON.stringify({ url: listener.url })}\n`);
    reportMemory(listener);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
