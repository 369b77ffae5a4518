import type { ProjectOptions } from './ProjectOptions';
import { STANDALONE_TEMPLATE_NAMES } from './templates';

/**
 * The servers in the repo's `examples/`: one per standalone template (examples/edge is written by hand), generated with these options and
 * never edited by hand. A test regenerates them and fails on any difference;
 * `node packages/cli/scripts/regenerate-examples.js` rewrites them after a template change.
 */
export function exampleProjects(toolwrightVersion: string): { dir: string; options: ProjectOptions }[] {
  return STANDALONE_TEMPLATE_NAMES.map((template) => ({
    dir: `examples/${template}`,
    options: {
      template,
      transport: template === 'http' ? 'http' : 'stdio',
      packageName: `@toolwright-examples/${template}`,
      toolwrightVersion,
      workspaceRoot: '../..',
    },
  }));
}
