'use strict';
// Clones a repository's HEAD commit, with the repository's branches and tags, onto a branch of the same
// name as the one checked out there; on a detached HEAD (as CI services check out a pull request's merge
// commit, which is on no branch) onto a branch named `detached-head`. lerna versions only on a branch.

const { execFileSync } = require('node:child_process');

const DETACHED_BRANCH = 'detached-head';

/**
 * Clones `source`'s HEAD into `dest` (a new directory) and returns the clone's branch and the commit's
 * short hash. Throws with git's message when git fails.
 */
function cloneHead(source, dest) {
  const git = (args, cwd) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const current = git(['rev-parse', '--abbrev-ref', 'HEAD'], source);
  const branch = current === 'HEAD' ? DETACHED_BRANCH : current;
  git(['clone', '--quiet', '--no-checkout', source, dest]);
  // HEAD itself is fetched: a detached commit on no branch is not in what the clone copied.
  git(['fetch', '--quiet', source, 'HEAD'], dest);
  git(['checkout', '--quiet', '-B', branch, 'FETCH_HEAD'], dest);
  return { branch, head: git(['rev-parse', '--short', 'HEAD'], dest) };
}

module.exports = { cloneHead, DETACHED_BRANCH };
