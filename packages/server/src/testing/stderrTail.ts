import type { Stream } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** How much of a server process's stderr a failed connection quotes: its last lines, where the reason usually is. */
const KEPT_CHARS = 2000;
/**
 * Characters that are no text: U+FFFD (what bytes that are not UTF-8 decode to) and the control
 * characters but tab, newline, carriage return and escape (which starts a terminal colour).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_TEXT = /[\uFFFD\x00-\x08\x0B\x0C\x0E-\x1A\x1C-\x1F\x7F]/g;
/** A line is binary output when at least this share of its characters are no text; fewer (a stray byte in a line of text) are quoted. */
const BINARY_SHARE = 1 / 8;
/** What stands for binary output (one or more lines of it in a row) in the quoted tail. */
const BINARY = '[binary output left out]\n';

/**
 * Reads a server process's piped stderr as it comes, copying it to this process's stderr when
 * `show` is true (as the `'inherit'` option shows it), and returns what the last
 * `KEPT_CHARS` characters of it were, for the error of a connection that failed. Output is judged
 * line by line (a line longer than `KEPT_CHARS` in pieces of that length): a line that is binary
 * output, or holds any character that is no text right after binary output, is described by one
 * bracketed note for the whole run of such lines, not quoted.
 */
export function stderrTail(stream: Stream | null, show: boolean): () => string {
  const decoder = new StringDecoder('utf8');
  let kept = '';
  // The line being read: it may go on in the next chunk.
  let line = '';
  let inBinary = false;
  const settle = (text: string): void => {
    const binary = isBinary(text, inBinary);
    if (binary && !inBinary) kept += BINARY;
    else if (!binary) kept += text;
    inBinary = binary;
  };
  stream?.on('data', (chunk: Buffer) => {
    if (show) process.stderr.write(chunk);
    line += decoder.write(chunk);
    let start = 0;
    for (let end = line.indexOf('\n'); end !== -1; end = line.indexOf('\n', start)) {
      settle(line.slice(start, end + 1));
      start = end + 1;
    }
    line = line.slice(start);
    while (line.length > KEPT_CHARS) {
      settle(line.slice(0, KEPT_CHARS));
      line = line.slice(KEPT_CHARS);
    }
    kept = kept.slice(-KEPT_CHARS);
  });
  return () => {
    const binary = line !== '' && isBinary(line, inBinary);
    const end = binary ? (inBinary ? '' : BINARY) : line;
    return (kept + end).slice(-KEPT_CHARS).trim();
  };
}

/** Whether a non-empty line of stderr is binary output, read right `afterBinary` output or not. */
function isBinary(line: string, afterBinary: boolean): boolean {
  const notText = line.match(NOT_TEXT)?.length ?? 0;
  return notText >= line.length * BINARY_SHARE || (afterBinary && notText > 0);
}
