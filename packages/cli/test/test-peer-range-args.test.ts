/**
 * scripts/test-peer-range.js reads its family from the command line: a name that is only an
 * `Object.prototype` member names no family and is refused before anything is installed.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'test-peer-range.js');
const REFUSAL = 'test-peer-range: name a family first: sdk or nest or express or fastify or hono or next or eslint.';

describe('scripts/test-peer-range.js arguments', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', ''])('refuses the family name %j', (name) => {
    const { status, stderr } = spawnSync(process.execPath, [SCRIPT, name], { encoding: 'utf8' });
    expect({ status, stderr: stderr.trim() }).toEqual({ status: 1, stderr: REFUSAL });
  });

  it('refuses an unknown end after a real family', () => {
    const { status, stderr } = spawnSync(process.execPath, [SCRIPT, 'sdk', 'middle'], { encoding: 'utf8' });
    expect({ status, stderr: stderr.trim() }).toEqual({
      status: 1,
      stderr: 'test-peer-range: unknown argument middle; use lowest, highest or nothing (both), and --skip-locked.',
    });
  });
});
