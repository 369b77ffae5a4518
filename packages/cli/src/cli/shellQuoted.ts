/** What a POSIX shell word may hold unquoted and still mean itself: no expansion, no globbing, no separator. */
const PLAIN = /^[A-Za-z0-9_./@+-]+$/;
/** The same for Windows' shells (cmd.exe, PowerShell), whose paths hold `\` and a drive's `:`. */
const PLAIN_WINDOWS = /^[A-Za-z0-9_.\\/:@+-]+$/;

/**
 * A relative path as one word of a command line in the user's shell. On a POSIX system: as it is
 * when it holds only letters, digits and `_ . / @ + -`; otherwise in single quotes, each `'`
 * written `'\''`. On Windows (`cd` of cmd.exe and PowerShell, which take single quotes literally
 * in cmd.exe): as it is when it holds only those and `\ :`, otherwise in double quotes (a Windows
 * path holds no `"`). A path that starts with `-` gets `./` first, so `cd` does not read it as an option.
 *
 * @example shellQuoted("it's mine") // 'it'\''s mine'
 */
export function shellQuoted(path: string, platform: NodeJS.Platform = process.platform): string {
  const word = path.startsWith('-') ? `./${path}` : path;
  if (platform === 'win32') return PLAIN_WINDOWS.test(word) ? word : `"${word}"`;
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
