import { PassThrough } from 'node:stream';
import { Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { Service } from 'typedi';

describe('a stdio listener that fails to begin', () => {
  @Service()
  class Tools {
    @Tool({ description: 'Answers pong.' })
    ping() {
      return 'pong';
    }
  }

  const appWithHooks = async (events: string[]) =>
    createApp({ name: 'stdio-failure', version: '1.0.0', tools: [Tools], onStart: () => void events.push('start'), onShutdown: () => void events.push('stop') });

  it('after the app started, gives stdout back and lets go of the app (the caller provider fails)', async () => {
    const events: string[] = [];
    const app = await appWithHooks(events);
    const write = process.stdout.write;
    const authInfo = () => {
      throw new Error('STDIO_USER is not set');
    };
    await expect(app.listen({ transport: 'stdio', stdin: new PassThrough(), authInfo, exitOnClose: false })).rejects.toThrow('STDIO_USER is not set');
    expect(process.stdout.write).toBe(write);
    // The listener's hold was let go: the app is not left counted as served, so its shutdown hooks ran.
    expect(events).toEqual(['start', 'stop']);
  });

  it("runs the shutdown hooks of a listen that failed while stdout is still the protocol's, then gives it back", async () => {
    const write = process.stdout.write;
    const seen: string[] = [];
    const app = await createApp({
      name: 'stdio-failure',
      version: '1.0.0',
      tools: [Tools],
      onShutdown: () => void seen.push(process.stdout.write === write ? 'stop: stdout real' : 'stop: stdout protected'),
    });
    const authInfo = () => {
      throw new Error('STDIO_USER is not set');
    };
    await expect(app.listen({ transport: 'stdio', stdin: new PassThrough(), authInfo, exitOnClose: false })).rejects.toThrow('STDIO_USER is not set');
    expect(seen).toEqual(['stop: stdout protected']);
    expect(process.stdout.write).toBe(write);
  });

  it('after the app started, gives stdout back and lets go of the app (the input stream fails as the transport starts)', async () => {
    const events: string[] = [];
    const app = await appWithHooks(events);
    const write = process.stdout.write;
    const stdin = new PassThrough();
    stdin.on = () => {
      throw new Error('the input stream is closed');
    };
    await expect(app.listen({ transport: 'stdio', stdin, exitOnClose: false })).rejects.toThrow('the input stream is closed');
    expect(process.stdout.write).toBe(write);
    expect(events).toEqual(['start', 'stop']);
    // The process's stdio is free again: a next listener on it is not refused as a second one.
    const again = await app.listen({ transport: 'stdio', stdin: new PassThrough(), exitOnClose: false });
    await again.close();
    expect(process.stdout.write).toBe(write);
    expect(events).toEqual(['start', 'stop', 'start', 'stop']);
  });

  it('refuses a stdin or stdout that is no stream before the start hooks run', async () => {
    const events: string[] = [];
    const app = await appWithHooks(events);
    const write = process.stdout.write;
    await expect(app.listen({ transport: 'stdio', stdin: {} as NodeJS.ReadableStream, exitOnClose: false })).rejects.toMatchObject({
      name: 'ConfigError',
      message: expect.stringContaining("listen({ transport: 'stdio', stdin }) needs a readable stream, and the stdin given has no on() method"),
    });
    await expect(app.listen({ transport: 'stdio', stdin: new PassThrough(), stdout: {} as NodeJS.WritableStream, exitOnClose: false })).rejects.toMatchObject({
      name: 'ConfigError',
      message: expect.stringContaining('needs a writable stream, and the stdout given has no write() method'),
    });
    expect(process.stdout.write).toBe(write);
    expect(events).toEqual([]);
  });
});
