// The server the soak runs (bench/soak.js), in plain JavaScript: decorators applied by hand.
// Fast calls, a tool that asks the client's model (sampling) and one that asks the user
// (elicitation), in whichever era the client speaks. `--http` serves HTTP on a free port
// and prints {"url":...} on stderr; otherwise stdio.
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

const http = process.argv.includes('--http');
createApp({ name: 'soak', version: '1.0.0', tools: [SoakTools] })
  .then((app) => app.listen(http ? { transport: 'http', port: 0, logLevel: 'silent' } : { transport: 'stdio' }))
  .then((listener) => http && process.stderr.write(`${JSON.stringify({ url: listener.url })}\n`))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
