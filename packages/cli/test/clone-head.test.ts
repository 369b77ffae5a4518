/**
 * `npm run release:dry` versions a clone of HEAD with lerna, which needs a branch. CI services check out a
 * pull request's merge commit on a detached HEAD, on no branch: the clone must still hold that commit, on a branch.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { cloneHead, DETACHED_BRANCH } = require('../../../scripts/cloneHead.js') as {
  cloneHead: (source: string, dest: string) => { branch: string; head: string };
  DETACHED_BRANCH: string;
};

const IDENTITY = ['-c', 'user.name=test', '-c', 'user.email=test@localhost'];

describe('cloneHead (release:dry step 3)', () => {
  let dir: string;
  let source: string;
  const git = (args: string[], cwd = source) => execFileSync('git', [...IDENTITY, ...args], { cwd, encoding: 'utf8' }).trim();
  const commit = (content: string) => {
    writeFileSync(join(source, 'file.txt'), content);
    git(['add', 'file.txt']);
    git(['commit', '--quiet', '-m', content]);
    return git(['rev-parse', '--short', 'HEAD']);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwright-clone-head-'));
    source = join(dir, 'source');
    execFileSync('git', ['init', '--quiet', '--initial-branch', 'main', source]);
    commit('first');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('on a branch: the clone is on the same branch, at the same commit', () => {
    const head = commit('second');
    expect(cloneHead(source, join(dir, 'clone'))).toEqual({ branch: 'main', head });
    expect(readFileSync(join(dir, 'clone', 'file.txt'), 'utf8')).toBe('second');
  });

  it('on a detached HEAD at a commit on no branch: the clone holds that commit, on a branch of its own', () => {
    git(['checkout', '--quiet', '--detach']);
    const head = commit('merge commit of a pull request');
    expect(git(['branch', '--contains', head])).toMatch(/detached/);
    const clone = join(dir, 'clone');
    expect(cloneHead(source, clone)).toEqual({ branch: DETACHED_BRANCH, head });
    expect(git(['rev-parse', '--abbrev-ref', 'HEAD'], clone)).toBe(DETACHED_BRANCH);
    expect(readFileSync(join(clone, 'file.txt'), 'utf8')).toBe('merge commit of a pull request');
  });
});
