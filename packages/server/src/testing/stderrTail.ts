import type { Stream } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** How much of a server process's stderr a failed connection quotes: its last lines, where the reason usually is. */
const KEPT_CHARS = 2000;
/**
 * Characters that are no text: U+FFFD (what bytes that are not UTF-8 decode to) and the control
 * characters but tab, newline, carriage return and escape (which starts a terminal colour).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_TEXT = /[\uFFFD\x00-\x08\x0B\x0C\x0E-\x1A\x1C-\x1F\x7F]+/g;
/** A run of characters that are no text at least this long is described instead of quoted; a shorter one (a stray byte in a line) stays. */
const BINARY_RUN = 8;
/** What stands for a run of binary output in the quoted tail. */
const BINARY = '[binary output left out]';

/**
 * Reads a server process's piped stderr as it comes, copying it to this process's stderr when
 * `show` is true (as the `'inherit'` option shows it), and returns what the last
 * `KEPT_CHARS` characters of it were, for the error of a connection that failed. Binary output
 * (runs of bytes that are not text) is described in one bracketed note, not quoted.
 */
export function stderrTail(stream: Stream | null, show: boolean): () => string {
  const decoder = new StringDecoder('utf8');
  let kept = '';
  // The run of characters that are no text at the end of what was read, not in `kept` yet: it may go on in the next chunk.
  let run = '';
  const settle = (): string => (run.length >= BINARY_RUN ? BINARY : run);
  stream?.on('data', (chunk: Buffer) => {
    if (show) process.stderr.write(chunk);
    const text = decoder.write(chunk);
    let last = 0;
    for (const match of text.matchAll(NOT_TEXT)) {
      if (match.index > last) {
        kept += settle() + text.slice(last, match.index);
        run = '';
      }
      // Only the length of a long run matters: keep no more of it than that.
      run = (run + match[0]).slice(0, BINARY_RUN);
      last = match.index + match[0].length;
    }
    if (last < text.length) {
      kept += settle() + text.slice(last);
      run = '';
    }
    kept = kept.slice(-KEPT_CHARS);
  });
  return () => (kept + settle()).slice(-KEPT_CHARS).trim();
}
