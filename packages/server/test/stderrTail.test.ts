/**
 * What a failed connection quotes of a server process's stderr. Driven on stderrTail with a
 * stream, as createTestClient hands it the process's piped stderr (test-client.e2e.test.ts runs
 * a real process that writes one repeated byte).
 */
import { PassThrough } from 'node:stream';
import { stderrTail } from '../src/testing/stderrTail';

/** `size` bytes that look random (xorshift32 from `seed`), the same on every run. */
function noise(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** The tail quoted once `chunks` were written to a piped stderr and it ended. */
async function tailOf(...chunks: (string | Buffer)[]): Promise<string> {
  const stderr = new PassThrough();
  const tail = stderrTail(stderr, false);
  for (const chunk of chunks) stderr.write(chunk);
  stderr.end();
  await new Promise((resolve) => setImmediate(resolve));
  return tail();
}

describe('stderrTail', () => {
  // Random bytes mix printable ones in, so no run of non-text lasted 8 characters: the tail
  // quoted ~840 U+FFFD and pushed out the line that said why.
  it('describes random binary output instead of quoting it, and keeps the line that said why', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const quoted = await tailOf('Error: the real reason\n', noise(4096, seed));
      expect(quoted.startsWith('Error: the real reason\n')).toBe(true);
      expect(quoted).toContain('[binary output left out]');
      // eslint-disable-next-line no-control-regex -- finding U+FFFD and NUL is the point
      expect(quoted).not.toMatch(/[\uFFFD\x00]/);
    }
  });

  it('describes binary output written in many small chunks, and quotes the text after it', async () => {
    const bytes = noise(4096, 7);
    const chunks = Array.from({ length: 64 }, (_, i) => bytes.subarray(i * 64, (i + 1) * 64));
    const quoted = await tailOf('starting\n', ...chunks, '\nError: the real reason\n');
    expect(quoted.startsWith('starting\n')).toBe(true);
    expect(quoted).toContain('[binary output left out]');
    expect(quoted.endsWith('\nError: the real reason')).toBe(true);
    // eslint-disable-next-line no-control-regex -- finding U+FFFD and NUL is the point
    expect(quoted).not.toMatch(/[\uFFFD\x00]/);
  });

  it('quotes a line of text with a stray byte in it as it is', async () => {
    const quoted = await tailOf(Buffer.concat([Buffer.from('Error: cannot open caf'), Buffer.from([0xe9]), Buffer.from(' (not found)\n')]));
    expect(quoted).toBe('Error: cannot open caf\uFFFD (not found)');
  });
});

describe('stderrTail and text split or shaped in the ways a process writes it', () => {
  it('keeps a UTF-8 character split across two chunks as one character', async () => {
    const bytes = Buffer.from('Error: café ✓ 🚀 failed\n');
    const cut = bytes.indexOf(Buffer.from('🚀')) + 2;
    expect(await tailOf(bytes.subarray(0, cut), bytes.subarray(cut))).toBe('Error: café ✓ 🚀 failed');
  });

  it('quotes CRLF lines and a coloured line as text', async () => {
    expect(await tailOf('first\r\n', 'Error: boom\r\n')).toBe('first\r\nError: boom');
    const red = '\x1b[31mError: listen EADDRINUSE :::3000\x1b[39m\n';
    expect(await tailOf(red)).toBe(red.trim());
  });

  it('keeps the last 2000 characters of one very long line', async () => {
    const tail = await tailOf(`${'x'.repeat(5000)}END`);
    expect(tail).toHaveLength(2000);
    expect(tail.endsWith('END')).toBe(true);
  });
});
