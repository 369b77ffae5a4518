import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The Security page lists each defence with the test that proves it: every test it names
 * must exist. A bare file name in a cell lives in the folder of the path before it.
 */
const ROOT = join(__dirname, '..', '..');
const page = readFileSync(join(ROOT, 'docs', 'guide', 'security.md'), 'utf8');
const section = page.slice(page.indexOf('## Defences and the tests that prove them'), page.indexOf('## Recap'));

const named = section
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| defence') && !line.startsWith('| ---'))
  .flatMap((row) => {
    const cell = row.split(' | ').at(-1)!;
    let folder = '';
    return [...cell.matchAll(/`([^`]+\.(?:ts|js))`/g)].map(([, file]) => {
      const path = file.includes('/') ? file : join(folder, file);
      folder = dirname(path);
      return path;
    });
  });

describe('the Security page', () => {
  it('names a test for every defence', () => {
    expect(section.length).toBeGreaterThan(0);
    expect(named.length).toBeGreaterThan(20);
  });

  it.each(named.map((path) => [path]))('names %s, which exists', (path) => {
    expect(existsSync(join(ROOT, path))).toBe(true);
  });
});
