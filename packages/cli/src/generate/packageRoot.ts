import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder of the installed `@toolwright/cli` package (two levels up from src/x or dist/x). */
export const PACKAGE_ROOT = resolve(__dirname, '..', '..');

/** Where the project templates live: shipped in the package's `templates/` folder. */
export const TEMPLATES_DIR = join(PACKAGE_ROOT, 'templates');

/** This CLI's version, which the Toolwright packages of a generated project share (lerna fixed mode). */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
