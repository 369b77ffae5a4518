/** Characters an argument may hold and still be typed into a POSIX shell as it is. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * A command line as a POSIX shell reads it: each argument that holds anything but plain characters
 * (a space, a quote, a parenthesis, `$`...) in single quotes, a single quote inside it written as
 * `'\''`, so that pasting the line into a shell runs the same command with the same arguments.
 */
export function shellQuoted(command: string, args: readonly string[]): string {
  return [command, ...args].map((word) => (PLAIN.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}
