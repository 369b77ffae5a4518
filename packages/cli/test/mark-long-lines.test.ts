/**
 * scripts/markLongLines.js ends each long line of a bundle with a comment that tells node not to print
 * that line above an uncaught error. A comment must never land inside a string, a template or a regular
 * expression, and the bundle must mean what it meant before.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

const { markLongLines } = require('../../../scripts/markLongLines.js') as { markLongLines: (file: string) => void };

const MARK = '/*node-do-not-add-exception-line*/';
const padding = (name: string) => `var ${name}=${JSON.stringify('x'.repeat(220))};`;

describe('markLongLines', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'toolwright-mark-lines-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Marks `code` as a bundle (with an empty source map) and returns the new text. */
  const marked = (code: string) => {
    const file = join(dir, 'bundle.js');
    writeFileSync(file, code);
    writeFileSync(`${file}.map`, JSON.stringify({ version: 3, sources: [], names: [], mappings: '' }));
    markLongLines(file);
    return readFileSync(file, 'utf8');
  };
  const run = (code: string) => JSON.stringify(runInNewContext(`${code}\n;[a, b, c]`));

  it('marks the end of each long line and leaves short lines alone', () => {
    const code = [padding('a'), 'var b=1;', `${padding('c')}var d=/x\\/y/;`].join('\n');
    const text = marked(code);
    expect(text.split('\n')).toEqual([`${padding('a')}${MARK}`, 'var b=1;', `${padding('c')}var d=/x\\/y/;${MARK}`]);
    expect(run(text)).toBe(run(code));
  });

  it('marks a line that ends inside a template before the template starts, and a line inside one not at all', () => {
    const code = [`${padding('a')}var b=\`one`, 'two${"x".repeat(250)}three', `four\`;${padding('c')}`].join('\n');
    const text = marked(code);
    expect(text.split('\n')).toEqual([`${padding('a')}var b=${MARK}\`one`, 'two${"x".repeat(250)}three', `four\`;${padding('c')}${MARK}`]);
    expect(run(text)).toBe(run(code));
  });

  it('marks a line that ends in a template substitution at the next literal', () => {
    const code = [`var a=1,b=\`one \${a+"${'y'.repeat(220)}"} two`, 'three`,c=3;'].join('\n');
    const text = marked(code);
    expect(text.split('\n')[0]).toBe(`var a=1,b=\`one \${a+"${'y'.repeat(220)}"${MARK}} two`);
    expect(run(text)).toBe(run(code));
  });
});
