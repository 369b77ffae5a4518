import { PassThrough } from 'node:stream';
import { Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';

class Greeter {
  @Tool({ description: 'Greets someone by name.' })
  greet(@Param('name') name: string) {
    return `Hello, ${name}!`;
  }
}

/** Issue 30 #9: a stdio server started on a terminal printed nothing and looked hung. */
describe('a stdio server on a terminal', () => {
  const listen = async (isTTY: boolean) => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [Greeter] });
    const stdin = Object.assign(new PassThrough(), { isTTY });
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const listener = await app.listen({ transport: 'stdio', stdin, stdout: new PassThrough(), exitOnClose: false });
      await listener.close();
    } finally {
      spy.mockRestore();
    }
    return written.join('');
  };

  it('says on stderr, once, that it waits for JSON-RPC and how to use it', async () => {
    const stderr = await listen(true);
    expect(stderr.match(/waiting for JSON-RPC messages on stdin/g)).toHaveLength(1);
    expect(stderr).toContain('npx toolwright call <entry> <tool>');
  });

  it('says nothing when a client pipes stdin', async () => {
    expect(await listen(false)).not.toContain('waiting for JSON-RPC');
  });
});
