import type { Stream } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** How much of a server process's stderr a failed connection quotes: its last lines, where the reason usually is. */
const KEPT_CHARS = 2000;

/**
 * Reads a server process's piped stderr as it comes, copying it to this process's stderr when
 * `show` is true (as the `'inherit'` option shows it), and returns what the last
 * `KEPT_CHARS` characters of it were, for the error of a connection that failed.
 */
export function stderrTail(stream: Stream | null, show: boolean): () => string {
  const decoder = new StringDecoder('utf8');
  let kept = '';
  stream?.on('data', (chunk: Buffer) => {
    if (show) process.stderr.write(chunk);
    kept = (kept + decoder.write(chunk)).slice(-KEPT_CHARS);
  });
  return () => kept.trim();
}
