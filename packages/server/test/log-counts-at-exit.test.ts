import { execFile } from 'node:child_process';
import { join } from 'node:path';

/**
 * The default logs write a few lines of each kind per 10 s and then one line with how many
 * were left out: the default stderr logger (`stderrLogger`, core), the fetch handler's
 * `console.error` log and the node listener's request log. A count still pending when the process exits is written at exit, once
 * per kind; one `exit` listener serves every logger of the process however many there are,
 * and nothing keeps the process up until the window ends. A fetch handler closed writes its
 * count as it closes. A fresh node on the built packages, for a real exit.
 */
const SCRIPT = `
  require('reflect-metadata');
  const { stderrLogger } = require('@toolwright/core');
  const { createApp } = require('@toolwright/server');
  const { createFetchHandler } = require('@toolwright/server/fetch');
  (async () => {
    const app = await createApp({ name: 'exiting', version: '1.0.0', tools: [] });
    const handlers = Array.from({ length: 20 }, () => createFetchHandler(app));
    const loggers = Array.from({ length: 50 }, (_, i) => stderrLogger('scope' + i));
    const before = process.listenerCount('exit');
    const log = stderrLogger('tools');
    for (let i = 0; i < 12; i++) log.error('boom');
    for (let i = 0; i < 3; i++) loggers[i].warn('slow');
    // A request whose body was read before the handler got it: logged by the handler's default log.
    const readFirst = async (handler) => {
      const request = new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      await request.text();
      return handler(request);
    };
    for (let i = 0; i < 9; i++) await readFirst(handlers[0]);
    for (let i = 0; i < 7; i++) await readFirst(handlers[1]);
    // Closed, a handler writes its count now; handlers[1] is left open: its count waits for the exit.
    await Promise.all(handlers.filter((_, i) => i !== 1).map((handler) => handler.close()));
    process.stderr.write('-- handlers closed\\n');
    // The node listener's request log: 25 refused requests (404), its listener left open.
    const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'warn' });
    for (let i = 0; i < 25; i++) await (await fetch('http://127.0.0.1:' + listener.port + '/nowhere')).text();
    // Timers that keep the process up (an unref'd one is not listed): a log window on one would hold it for 10 s.
    const timers = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    process.stdout.write(JSON.stringify({ exitListeners: process.listenerCount('exit') - before, timers }));
    process.exit(0);
  })();`;

function run(): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['-e', SCRIPT], { cwd: join(__dirname, '..', '..', '..'), timeout: 20_000 }, (error, stdout, stderr) =>
      error ? reject(Object.assign(error, { stderr })) : resolve({ stdout, stderr }),
    ),
  );
}

describe('log counts pending at process exit', () => {
  it('are written once per kind at exit, with one exit listener for every logger, and the process ends at once', async () => {
    const { stdout, stderr } = await run();
    // No clock here: no timer is left that would keep the process up until the 10 s window ends.
    expect(JSON.parse(stdout)).toEqual({ exitListeners: 1, timers: 0 });
    const lines = stderr.split('\n').filter((line) => line !== '');
    expect(lines.filter((line) => line === '[toolwright] error tools: boom')).toHaveLength(5);
    expect(lines.filter((line) => line.startsWith('[toolwright] warn scope'))).toHaveLength(3);
    const readBefore = 'toolwright fetch: the body of POST /mcp was read before the handler got the request.';
    expect(lines.filter((line) => line.startsWith(readBefore))).toHaveLength(10);
    const requests = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string; status: number; count?: number });
    expect(requests.filter((entry) => entry.msg === 'http request' && entry.status === 404)).toHaveLength(20);
    // The closed handler's count, written as it closed; the counts pending come last, written at exit: one line per kind.
    const kind = readBefore.slice(0, 60);
    const closed = lines.indexOf('-- handlers closed');
    expect(lines[closed - 1]).toBe(`${kind}... (4 more line(s) like this left out in 10 s)`);
    expect(lines.slice(-3)).toEqual(
      expect.arrayContaining([
        '[toolwright] error tools: 7 more error line(s) like the last ones were left out in 10 s',
        `${kind}... (2 more line(s) like this left out in 10 s)`,
        expect.stringContaining('"msg":"http requests not logged"'),
      ]),
    );
    expect(requests.filter((entry) => entry.msg === 'http requests not logged')).toEqual([expect.objectContaining({ status: 404, count: 5 })]);
    expect(lines.filter((line) => line.includes('left out'))).toHaveLength(3);
  });
});
