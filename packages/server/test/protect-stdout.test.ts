import { Writable } from 'node:stream';
import { protectStdout } from '@toolwright/server/stdio';

describe('protectStdout', () => {
  it('sends console output and stray stdout writes to stderr, keeps one writer for the protocol, and restores', () => {
    const protocol: string[] = [];
    const stdout = new Writable({ write: (chunk, _encoding, done) => (protocol.push(String(chunk)), done()) }) as unknown as NodeJS.WriteStream;
    const toStderr: string[] = [];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (toStderr.push(String(chunk)), true));
    const before = console.log;
    try {
      const guard = protectStdout(stdout);
      const cached = console.log; // taken before the first call, as a logging library might
      cached('one');
      cached('two');
      console.info('three');
      stdout.write('stray\n');
      guard.write('{"jsonrpc":"2.0"}\n', () => undefined);
      guard.restore();
      expect(console.log).toBe(before);
    } finally {
      stderr.mockRestore();
    }
    expect(toStderr.join('')).toBe('one\ntwo\nthree\nstray\n');
    expect(protocol).toEqual(['{"jsonrpc":"2.0"}\n']);
  });
});
