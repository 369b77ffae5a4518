/** npm's rules for a package name (new packages): lowercase, URL-safe, at most 214 characters, no `~'!()*`. */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/** Names npm refuses outright, whatever their form. */
const RESERVED = new Set(['node_modules', 'favicon.ico']);

/** Returns why `name` cannot be a project name (with a valid name to try, when one can be made), or undefined when it can. */
export function validateProjectName(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > 214) return `the name is ${name.length} characters long; npm allows at most 214`;
  const suggestion = suggestProjectName(name);
  const tryIt = suggestion === undefined ? '' : `: try '${suggestion}'`;
  if (name !== name.toLowerCase()) return `npm package names are lowercase${tryIt}`;
  if (!NPM_NAME.test(name)) {
    return `use lowercase letters, digits, '-', '.' or '_', optionally scoped as '@scope/name', starting with a letter or digit${tryIt}`;
  }
  if (!/[a-z0-9]/.test(name.replace(/^@[^/]+\//, ''))) return 'the name needs at least one letter or digit';
  return reservedProblem(name);
}

/**
 * Why npm refuses a name of the right form: reserved. A core module's name (`http`) is left to
 * the user: a generated project is private, never published, and installs and runs under it.
 */
function reservedProblem(name: string): string | undefined {
  if (RESERVED.has(name)) return `npm reserves '${name}'; choose another name, e.g. 'my-${name.replace('.', '-')}'`;
  return undefined;
}

/**
 * A valid package name made from `name` (accents dropped, lowercased, other characters replaced by '-'),
 * or undefined when nothing usable is left.
 */
export function suggestProjectName(name: string): string | undefined {
  const part = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .replace(/-+$/, '');
  const scoped = /^@([^/]+)\/(.+)$/.exec(name);
  const suggestion = scoped ? `@${part(scoped[1])}/${part(scoped[2])}` : part(name);
  const valid = suggestion.length > 0 && suggestion.length <= 214 && NPM_NAME.test(suggestion) && /[a-z0-9]/.test(suggestion);
  return valid && reservedProblem(suggestion) === undefined ? suggestion : undefined;
}
