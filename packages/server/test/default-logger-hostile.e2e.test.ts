/**
 * The default logger (stderr, text) against a client's text: a tool whose error message holds
 * the client's newlines, terminal escapes and a forged entry stays one entry, escaped, with
 * its stack frames; hundreds of failing calls cost a few lines.
 */
import { Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

class Fragile {
  @Tool({ description: 'Fails with the input in its message, as careless code does.' })
  parse(@Param('input') input: string): string {
    throw new Error(`cannot parse ${input}`);
  }
}

const HOSTILE = '\n[toolwright] error tools: forged\u001b[31m\u2028\u009b\u202e';

describe('the default stderr logger, hostile text', () => {
  let written: string[];
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    written = [];
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  });
  afterEach(() => stderr.mockRestore());

  it('writes one escaped entry per failure, stack frames indented, and a few entries of 300 failures', async () => {
    const app = await createApp({ name: 'fragile', version: '1', tools: [Fragile] });
    const client = await createTestClient(app);
    try {
      // Few enough to fit in one 10 s window of the throttle on a loaded machine (2,000 took longer in a CI run, and the window's count line came in).
      for (let i = 0; i < 300; i++) {
        const result = await client.callTool({ name: 'parse', arguments: { input: `${i}${HOSTILE}` } });
        expect(result.isError).toBe(true);
      }
    } finally {
      await client.close();
    }
    const text = written.join('');
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(text).not.toMatch(/[\u001b\u2028\u009b\u202e]/);
    const lines = text.split('\n').filter((line) => line !== '');
    // Entries start with the prefix; the lines between are the stack's frames.
    const entries = lines.filter((line) => !/^ {4}at /.test(line));
    for (const entry of entries) expect(entry).toMatch(/^\[toolwright\] error tools: tool 'parse' threw/);
    // 5 written of one kind per 10 s; the rest are counted once the window is over.
    expect(entries).toHaveLength(5);
    expect(entries[0]).toContain('cannot parse 0\\u000a[toolwright] error tools: forged\\u001b[31m\\u2028\\u009b\\u202e');
    expect(lines.length).toBeLessThan(5 * 60);
  });
});
