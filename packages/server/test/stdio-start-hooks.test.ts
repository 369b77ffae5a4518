import { PassThrough } from 'node:stream';
import { OnStart, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { Service } from 'typedi';

@Service()
class Pinger {
  @Tool({ description: 'Answers pong.' })
  ping() {
    console.log('ping was called');
    return 'pong';
  }
  @OnStart()
  connect() {
    // What a start hook often does: say it connected, by the console or a library writing to stdout.
    console.log('connected to the database');
    process.stdout.write('a library wrote this\n');
  }
}

/** Serves the app over stdio on the process's stdout (captured), the way a client starts it; returns what reached stdout and stderr. */
async function serveOnProcessStdout(onStart: () => unknown): Promise<{ stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const outSpy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, done?: () => void) => {
    stdout.push(String(chunk));
    if (typeof done === 'function') queueMicrotask(done);
    return true;
  }) as typeof process.stdout.write);
  const errSpy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
  try {
    const app = await createApp({ name: 'pinger', version: '1', tools: [Pinger], onStart });
    const stdin = new PassThrough();
    const listener = await app.listen({ transport: 'stdio', stdin, exitOnClose: false });
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ping', arguments: {} } })}\n`);
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = () => (stdout.join('').includes('"id":2') ? resolve() : Date.now() - started > 5000 ? reject(new Error(`no answer to the call; stdout: ${stdout.join('')}`)) : setTimeout(poll, 5));
      poll();
    });
    await listener.close();
  } finally {
    outSpy.mockRestore();
    errSpy.mockRestore();
  }
  return { stdout: stdout.join(''), stderr: stderr.join('') };
}

describe('stdout over stdio, from the start hooks on', () => {
  it('carries only JSON-RPC: console output and stray writes of the start hooks go to stderr, as those of the tools do', async () => {
    const { stdout, stderr } = await serveOnProcessStdout(() => console.info('onStart ran'));
    const lines = stdout.split('\n').filter((line) => line !== '');
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(lines.map((line) => (JSON.parse(line) as { id?: number }).id).sort()).toEqual([1, 2]);
    expect(stderr).toContain('onStart ran\n');
    expect(stderr).toContain('connected to the database\n');
    expect(stderr).toContain('a library wrote this\n');
    expect(stderr).toContain('ping was called\n');
  });

  it('gives stdout back when a start hook fails, so the error the app prints reaches the terminal', async () => {
    const before = process.stdout.write;
    const app = await createApp({
      name: 'failing',
      version: '1',
      tools: [Pinger],
      onStart: () => {
        throw new Error('database unreachable');
      },
    });
    const errSpy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await expect(app.listen({ transport: 'stdio', stdin: new PassThrough(), exitOnClose: false })).rejects.toThrow('database unreachable');
    } finally {
      errSpy.mockRestore();
    }
    expect(process.stdout.write).toBe(before);
  });
});

describe('a second stdio listener on the process streams', () => {
  it('is refused before anything runs, and the first one goes on serving each request once', async () => {
    const stdout: string[] = [];
    const outSpy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, done?: () => void) => {
      stdout.push(String(chunk));
      if (typeof done === 'function') queueMicrotask(done);
      return true;
    }) as typeof process.stdout.write);
    const errSpy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let calls = 0;
    class Counter {
      @Tool({ description: 'Counts its calls.' })
      count() {
        return String(++calls);
      }
    }
    try {
      const app = await createApp({ name: 'counter', version: '1', tools: [Counter] });
      const stdin = new PassThrough();
      const first = await app.listen({ transport: 'stdio', stdin, exitOnClose: false });
      await expect(app.listen({ transport: 'stdio', stdin, exitOnClose: false })).rejects.toThrow(/already serves stdio/);
      stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'count', arguments: {} } })}\n`);
      await new Promise<void>((resolve, reject) => {
        const started = Date.now();
        const poll = () => (stdout.join('').includes('"id":1') ? resolve() : Date.now() - started > 5000 ? reject(new Error('no answer')) : setTimeout(poll, 5));
        poll();
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await first.close();
      expect(calls).toBe(1);
      expect(stdout.join('').match(/"id":1/g)).toHaveLength(1);
      // Once the first closed, the process may serve stdio again.
      const again = await app.listen({ transport: 'stdio', stdin: new PassThrough(), exitOnClose: false });
      await again.close();
    } finally {
      outSpy.mockRestore();
      errSpy.mockRestore();
    }
  });
});
