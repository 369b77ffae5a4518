import { join } from 'node:path';
import { generateProject } from '@toolwright/cli';
import { exampleProjects } from '../src/generate/exampleProjects';
import { cliVersion } from '../src/generate/packageRoot';
import { projectDrift } from '../src/generate/projectDrift';

const REPO = join(__dirname, '..', '..', '..');

describe('examples/ are exactly what the generator writes', () => {
  it.each(exampleProjects(cliVersion()).map((e) => [e.dir, e] as const))('%s', async (_, { dir, options }) => {
    const drift = await projectDrift(join(REPO, dir), generateProject(options));
    // On failure: change the template (packages/cli/templates), not the example, then run
    // `npm run build && node packages/cli/scripts/regenerate-examples.js` and commit both.
    expect(drift).toEqual({ missing: [], changed: [], extra: [] });
  });
});
