import { spawnSync } from 'node:child_process';

/** Lifecycle hooks in a real stdio process, apart from lifecycle.e2e.test.ts so that file stays in the fast loop. */
describe('lifecycle hooks over stdio', () => {
  it('over stdio: start hooks run before the first message is read, shutdown hooks after stdin ends and calls drain', () => {
    const script = `
      require('reflect-metadata');
      const { OnShutdown, OnStart, Tool } = require('@toolwright/core');
      const { createApp } = require('@toolwright/server');
      class T { ping() { return 'pong'; } up() { console.error('start hook'); } down() { console.error('shutdown hook'); } }
      const d = (n) => Object.getOwnPropertyDescriptor(T.prototype, n);
      Tool({ description: 'ping' })(T.prototype, 'ping', d('ping'));
      OnStart()(T.prototype, 'up', d('up'));
      OnShutdown()(T.prototype, 'down', d('down'));
      createApp({ name: 'x', version: '1', tools: [T] }).then((app) => app.listen({ transport: 'stdio' }));`;
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const run = spawnSync(process.execPath, ['-e', script], { cwd: __dirname, encoding: 'utf8', input: `${ping}\n`, timeout: 20_000 });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(run.stderr.trim().split('\n')).toEqual(['start hook', 'shutdown hook']);
  });

  it('stops startup with the failing hook named, and the server exits with code 1', () => {
    const script = `
      require('reflect-metadata');
      const { Tool } = require('@toolwright/core');
      const { createApp } = require('@toolwright/server');
      class T { ping() { return 'pong'; } }
      Tool({ description: 'ping' })(T.prototype, 'ping', Object.getOwnPropertyDescriptor(T.prototype, 'ping'));
      createApp({ name: 'x', version: '1', tools: [T], onStart: () => { throw new Error('database unreachable'); } })
        .then((app) => app.listen({ transport: 'stdio' }))
        .catch((error) => { console.error(error.message); process.exit(1); });`;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: __dirname, encoding: 'utf8', input: '', timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe('Toolwright: the start hook onStart failed, so the server did not start: database unreachable');
  });
});
