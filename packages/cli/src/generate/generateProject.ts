import { TEMPLATES_DIR } from './packageRoot';
import { eslintConfig, gitignore, jestConfig, packageJson, testTsconfig, tsconfig } from './projectFiles';
import type { GeneratedFile, ProjectOptions } from './ProjectOptions';
import { projectNames } from './projectNames';
import { readme } from './readme';
import { readTemplateFiles } from './readTemplateFiles';
import { renderTemplate } from './renderTemplate';
import { TEMPLATES } from './templates';

/**
 * Every file of a new project, sorted by path. Pure apart from reading the templates: the
 * same options always give the same bytes, which is what lets CI check that `examples/`
 * are exactly what the generator writes.
 */
export function generateProject(options: ProjectOptions, templatesDir: string = TEMPLATES_DIR): GeneratedFile[] {
  const names = projectNames(options.packageName);
  const values = { packageName: names.packageName, serverName: names.serverName, title: names.title, appFactory: names.appFactory };
  const files = new Map<string, string>();
  for (const [path, source] of readTemplateFiles(templatesDir, options.template)) {
    files.set(path, renderTemplate(source, values, `${options.template}/${path}`));
  }
  files.set('package.json', packageJson(options));
  const buildTsconfig = TEMPLATES[options.template].host?.buildTsconfig ?? 'tsconfig.json';
  files.set(buildTsconfig, tsconfig(options));
  files.set('test/tsconfig.json', testTsconfig(options, buildTsconfig));
  files.set('jest.config.js', jestConfig());
  files.set('eslint.config.mjs', eslintConfig(options));
  files.set('.gitignore', gitignore(options));
  files.set('README.md', readme(options));
  return [...files].map(([path, content]) => ({ path, content })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
