/** The catalog's note that a problem skipped a skill: under `strict` nothing is skipped, the build stops instead. */
const SKIPPED = / \((?:skill )?skipped\)$/;

/** The fix for each kind of problem the skills catalog reports, by what its message says. */
const FIXES: readonly (readonly [RegExp, string])[] = [
  [/symlinks and other special files are not followed/, 'replace the symlink, FIFO or device with a copy of the plain file, or move it out of the skills folder.'],
  [/exceeds the limit of|one skill may publish/, 'make the skill smaller (or split it into several skills), or raise skills({ limits: { files, bytes } }).'],
  [/cannot be (?:listed|read)/, 'let the server read the folder and its files (permissions), or move what it cannot read out of the skills folder.'],
  [/cannot be represented in a URI/, 'rename the file or folder to a name a URI can carry (valid Unicode, no control characters).'],
];
const DEFAULT_FIX = 'fix the skill as SEP-2640 asks (the SKILL.md frontmatter needs a name equal to its folder name and a description), or move it out of the skills folder.';

/** A catalog problem's message without the "(skill skipped)" note. */
export function problemText(message: string): string {
  return message.replace(SKIPPED, '');
}

/** How to fix a problem the skills catalog reported, by its message. */
export function skillProblemFix(message: string): string {
  return FIXES.find(([pattern]) => pattern.test(message))?.[1] ?? DEFAULT_FIX;
}
