import { processIo } from '@toolwright/cli';

/**
 * Questions go to stderr, so whether they may be asked depends on stdin and stderr, not stdout:
 * `toolwright call ... > out.json` still asks on the terminal, and the file holds only the result.
 */
describe('processIo', () => {
  const streams = [process.stdin, process.stdout, process.stderr] as { isTTY?: boolean }[];
  let saved: (boolean | undefined)[];
  beforeEach(() => {
    saved = streams.map((stream) => stream.isTTY);
  });
  afterEach(() => streams.forEach((stream, i) => (stream.isTTY = saved[i])));

  const interactive = (stdin: boolean, stdout: boolean, stderr: boolean): boolean => {
    [stdin, stdout, stderr].forEach((tty, i) => (streams[i].isTTY = tty));
    return processIo().interactive;
  };

  // It required stdout to be a terminal: with stdout sent to a file, nothing was asked.
  it('asks when stdin and stderr are terminals, whatever stdout is', () => {
    expect(interactive(true, false, true)).toBe(true);
    expect(interactive(true, true, true)).toBe(true);
  });

  it('does not ask when stdin or stderr is not a terminal', () => {
    expect(interactive(false, true, true)).toBe(false);
    expect(interactive(true, true, false)).toBe(false);
  });
});
