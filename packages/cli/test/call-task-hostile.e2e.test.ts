import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { runCli } from '@toolwright/cli';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright call` on 2026-07-28 task servers that misbehave on purpose (fixtures/hostile-server.js's
 * task modes, over real HTTP on 127.0.0.1 in this process): an answer that is no JSON-RPC answer is
 * shown as it came, and a task that never ends is cancelled at --timeout; both exit 3 with a message.
 * A server that asks to be polled every 0 ms (or less, or with no number) is polled at most every 100 ms.
 */
const { serveTasksOverHttp } = require('./fixtures/hostile-server.js') as {
  serveTasksOverHttp(mode: TaskMode): Promise<{ server: Server; url: string; heard: string[] }>;
};
type TaskMode = 'taskBadAnswer' | 'taskNeverEnds' | 'taskGoesQuiet' | 'taskPollsAtZero' | 'taskPollsBackwards' | 'taskPollsWithText';

const cli = async (...argv: string[]) => {
  const io = memoryIo(tmpdir());
  const code = await runCli(argv, io);
  return { code, stdout: io.output(), stderr: io.errors() };
};

describe('toolwright call on a hostile task server', () => {
  const servers: Server[] = [];
  const start = async (mode: TaskMode) => {
    const served = await serveTasksOverHttp(mode);
    servers.push(served.server);
    return served;
  };
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("says what an answer whose error is no object was, instead of printing 'undefined' (exit 3)", async () => {
    const { url } = await start('taskBadAnswer');
    expect(await cli('call', url, 'echo')).toEqual({
      code: 3,
      stdout: '',
      stderr: `error: tools/call 'echo': the server answered HTTP 200 without a JSON-RPC answer ({"jsonrpc":"2.0","id":1,"error":"x"}).\n`,
    });
  });

  it('cancels a task that has not ended within --timeout and says how to wait longer (exit 3)', async () => {
    const { url, heard } = await start('taskNeverEnds');
    // No clock here: a call that waited for the default timeout (60 s) instead of --timeout would
    // outlast jest's test timeout (30 s) and fail the test.
    const result = await cli('call', url, 'echo', '--timeout', '300');
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Task forever started; polling it');
    expect(result.stderr).toContain('[working] still working');
    expect(result.stderr).toContain("error: Task forever of 'echo' did not end within 300 ms, and was cancelled. If it needs longer, raise --timeout <ms>.\n");
    for (const deadline = Date.now() + 5000; !heard.includes('tasks/cancel') && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    expect(heard).toContain('tasks/cancel');
  });

  it('fails a poll the server leaves unanswered at --timeout and says how to wait longer (exit 3)', async () => {
    const { url } = await start('taskGoesQuiet');
    // As above, jest's test timeout (30 s) fails a wait for the default timeout (60 s).
    const result = await cli('call', url, 'echo', '--timeout', '300');
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr).toContain(`error: tasks/get 'forever': no answer within 300 ms from ${url}. If the server is slow, raise --timeout <ms>.\n`);
  });

  it.each(['taskPollsAtZero', 'taskPollsBackwards', 'taskPollsWithText'] as const)('polls a task of %s no more often than every 100 ms', async (mode) => {
    const { url, heard } = await start(mode);
    const result = await cli('call', url, 'echo', '--timeout', '1000');
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("error: Task forever of 'echo' did not end within 1000 ms, and was cancelled.");
    // 1000 ms at one poll per 100 ms or more: 10 polls at most (a string waits the default 1000 ms); a tight loop sends hundreds.
    const polls = heard.filter((method) => method === 'tasks/get').length;
    expect(polls).toBeGreaterThanOrEqual(1);
    expect(polls).toBeLessThanOrEqual(11);
  });
});
