import { logLineText } from '@toolwright/core/internal';

/** The most characters of a client's name or URI an error message repeats. */
export const MAX_ECHOED_CHARS = 200;

/**
 * A name or URI from the wire as an error message repeats it: cut to `MAX_ECHOED_CHARS`
 * (with `…`), and every control character (ESC, CR, LF...), line separator, bidirectional
 * override and lone surrogate written as `\uXXXX`, so that a client printing the message to a
 * terminal or a log shows the text and runs no escape sequence. `data.uri` keeps the URI exact.
 */
export function echoedName(text: string): string {
  return logLineText(text, MAX_ECHOED_CHARS);
}
