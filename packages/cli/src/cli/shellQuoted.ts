/** What a POSIX shell word may hold unquoted and still mean itself: no expansion, no globbing, no separator. */
const PLAIN = /^[A-Za-z0-9_./@+-]+$/;

/**
 * A relative path as one word of a POSIX shell command line: as it is when it holds only
 * letters, digits and `_ . / @ + -`; otherwise in single quotes, each `'` written `'\''`. A path
 * that starts with `-` gets `./` first, so `cd` does not read it as an option.
 *
 * @example shellQuoted("it's mine") // 'it'\''s mine'
 */
export function shellQuoted(path: string): string {
  const word = path.startsWith('-') ? `./${path}` : path;
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
