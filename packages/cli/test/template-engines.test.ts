/**
 * A generated project's `engines.node` promises that it installs and runs on every Node.js release
 * in that range: so each package its host pins (Miniflare, Next.js, NestJS, Express, ...) must
 * declare support for the oldest release of every line the range admits, or `npm install` warns
 * EBADENGINE and the tool may refuse to run there (wrangler exits on Node.js 20). The packages are
 * read from this workspace, at the versions the template pins. The range stays within Toolwright's own.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateProject, TEMPLATE_NAMES, TEMPLATES } from '@toolwright/cli';
import { unsupportedNodeMessage } from '../src/cli/supportedNode';
import { REPO } from './helpers/markdown';

type Version = readonly [number, number, number];

function parseVersion(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text.replace(/^v/, '').split('.').map(Number);
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether `version` satisfies one comparator of an `engines` range (`^x.y.z`, `>=x`, `>= x.y`, `x.y.z`, `<x`). */
function satisfiesComparator(version: Version, comparator: string): boolean {
  const [, op = '', rest = ''] = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comparator.trim()) ?? [];
  const bound = parseVersion(rest);
  const order = compare(version, bound);
  if (op === '^') return order >= 0 && (bound[0] > 0 ? version[0] === bound[0] : version[1] === bound[1]);
  if (op === '~') return order >= 0 && version[0] === bound[0] && version[1] === bound[1];
  if (op === '>=') return order >= 0;
  if (op === '>') return order > 0;
  if (op === '<=') return order <= 0;
  if (op === '<') return order < 0;
  return order === 0;
}

/** Whether `version` satisfies an `engines.node` range: alternatives joined by `||`, comparators by spaces. */
function satisfies(version: string, range: string): boolean {
  return range
    .split('||')
    .some((alternative) => (alternative.trim().match(/(\^|~|>=|<=|>|<|=)?\s*\d+(\.\d+){0,2}/g) ?? []).every((comparator) => satisfiesComparator(parseVersion(version), comparator)));
}

/** The oldest release of each line a range admits (`^20.19.0 || >=24` -> 20.19.0, 24.0.0). */
function floors(range: string): string[] {
  return range.split('||').map((alternative) => /\d+(\.\d+){0,2}/.exec(alternative)![0]);
}

/** `package.json` of `name` at `version` as installed in this workspace (the root, or an example's own node_modules). */
function installedManifest(name: string, version: string): { version: string; engines?: { node?: string } } {
  const folders = [join(REPO, 'node_modules'), ...readdirSync(join(REPO, 'examples')).map((example) => join(REPO, 'examples', example, 'node_modules'))];
  for (const folder of folders) {
    const file = join(folder, name, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { version: string; engines?: { node?: string } };
    if (version === '*' || manifest.version === version) return manifest;
  }
  throw new Error(`${name}@${version} is not installed in this workspace: pin the version the workspace installs (npm ls ${name}), or run 'npm install'.`);
}

/** The tools a template's README runs with `npx` without pinning them: the workspace's version stands for them. */
const README_TOOLS: Partial<Record<(typeof TEMPLATE_NAMES)[number], readonly string[]>> = { edge: ['wrangler'] };

describe("a generated project's engines.node", () => {
  it.each(TEMPLATE_NAMES.filter((name) => TEMPLATES[name].host !== undefined))('%s: every package its host pins supports every Node.js release the project admits', (template) => {
    const files = generateProject({ template, transport: TEMPLATES[template].transport, packageName: 'x', toolwrightVersion: '0.1.0' });
    const range = (JSON.parse(files.find((f) => f.path === 'package.json')!.content) as { engines: { node: string } }).engines.node;
    const host = TEMPLATES[template].host!;
    const pinned: [string, string][] = [...Object.entries({ ...host.dependencies, ...host.devDependencies }), ...(README_TOOLS[template] ?? []).map((name): [string, string] => [name, '*'])];
    const refused = pinned.flatMap(([name, version]) => {
      const manifest = installedManifest(name, version);
      const needs = manifest.engines?.node;
      return needs === undefined ? [] : floors(range).flatMap((floor) => (satisfies(floor, needs) ? [] : [`${name}@${manifest.version} needs Node.js ${needs}, not ${floor}`]));
    });
    expect(refused).toEqual([]);
    expect(floors(range).filter((floor) => unsupportedNodeMessage(floor) !== undefined)).toEqual([]);
  });

  it('reads engines ranges as npm does', () => {
    expect(satisfies('22.12.0', '^20.19.0 || ^22.13.0 || >=24')).toBe(false);
    expect(satisfies('22.13.0', '^20.19.0 || ^22.13.0 || >=24')).toBe(true);
    expect(satisfies('20.19.0', '>=22.0.0')).toBe(false);
    expect(satisfies('24.0.0', '>= 20')).toBe(true);
    expect(satisfies('26.0.0', '^18.14.0 || ^20.0.0 || ^22.0.0 || >=24.0.0')).toBe(true);
    expect(floors('^20.19.0 || ^22.12.0 || >=24')).toEqual(['20.19.0', '22.12.0', '24']);
  });
});
