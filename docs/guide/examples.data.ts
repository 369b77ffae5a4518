/**
 * Build-time data for the Examples page: one entry per examples/<name>/package.json, so the
 * gallery lists exactly the examples in the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface ExampleInfo {
  readonly dir: string;
  readonly description: string;
  readonly sources: string[];
  readonly tests: string[];
}

declare const data: ExampleInfo[];
export { data };

const list = (dir: string, suffix: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(suffix))
        .sort()
    : [];

export default {
  watch: ['../../examples/*/package.json'],
  load(files: string[]): ExampleInfo[] {
    return [...files].sort().map((file) => {
      const root = dirname(file);
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { description?: string };
      return { dir: basename(root), description: pkg.description ?? '', sources: list(join(root, 'src'), '.ts'), tests: list(join(root, 'test'), '.test.ts') };
    });
  },
};
