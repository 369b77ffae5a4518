/**
 * Benchmark figures live in bench/README.md, with the command and the sitting that produced
 * them; a guide page names the command and links there. A ratio or a count copied into a page
 * goes stale with the next change and reads as a promise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const GUIDE = join(__dirname, '..', 'guide');
/** What a benchmark figure looks like in prose: a ratio, a share of a time, an instruction or CPU count. */
const FIGURE =
  /\b\d+(?:\.\d+)?\s?×|\b\d+(?:\.\d+)?x (?:faster|slower|the|as)\b|\bM instructions\b|\b\d+(?:\.\d+)? ?µs\b|\b(?:about|in) (?:two thirds|a third|half|0\.\d+) of the time\b|\b(?:a tenth|a sixth|a fifth|a quarter) fewer\b/;

describe('guide pages', () => {
  const pages = readdirSync(GUIDE).filter((name) => name.endsWith('.md'));

  it('are read', () => expect(pages.length).toBeGreaterThan(30));

  it.each(pages)('%s holds no benchmark figure (they belong in bench/README.md)', (page) => {
    const found = readFileSync(join(GUIDE, page), 'utf8')
      .split('\n')
      .map((line, i) => [i + 1, line] as const)
      .filter(([, line]) => FIGURE.test(line))
      .map(([n, line]) => `${page}:${n}: ${line.trim()}`);
    expect(found).toEqual([]);
  });
});
