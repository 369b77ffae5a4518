import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** Scopes over a real stdio process, apart from scopes.e2e.test.ts so that file stays in the fast loop. */
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('request- and session-scoped services over stdio', () => {
  it('scopes services over a stdio connection too: one session for the process, a request scope per call', async () => {
    const script = `
      require('reflect-metadata');
      const { FromCall, Param, Scoped, Tool } = require('@toolwright/core');
      const { createApp } = require('@toolwright/server');
      let made = 0;
      class Counter { constructor() { this.n = 0; this.id = ++made; } }
      Scoped('session')(Counter);
      class CounterTools { constructor(counter, ctx) { this.counter = counter; this.ctx = ctx; this.id = ++made; } bump() { return 'tools ' + this.id + ' counter ' + this.counter.id + ' n=' + (++this.counter.n) + ' for ' + this.ctx.toolName; } }
      Reflect.defineMetadata('design:paramtypes', [Counter, Object], CounterTools);
      FromCall('context')(CounterTools, undefined, 1);
      Scoped('request')(CounterTools);
      Tool({ description: 'bump' })(CounterTools.prototype, 'bump', Object.getOwnPropertyDescriptor(CounterTools.prototype, 'bump'));
      createApp({ name: 'x', version: '1', tools: [CounterTools] }).then((app) => app.listen({ transport: 'stdio' }));`;
    const client = new Client({ name: 'stdio', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['-e', script], cwd: __dirname, stderr: 'ignore' }));
    const one = textOf(await client.callTool({ name: 'bump', arguments: {} }));
    const two = textOf(await client.callTool({ name: 'bump', arguments: {} }));
    const counter = /counter (\d+)/.exec(one)![1];
    expect(one).toMatch(new RegExp(`^tools \\d+ counter ${counter} n=1 for bump$`));
    expect(two).toMatch(new RegExp(`counter ${counter} n=2 for bump$`));
    expect(/tools (\d+)/.exec(one)![1]).not.toBe(/tools (\d+)/.exec(two)![1]);
    await client.close();
  });
});
