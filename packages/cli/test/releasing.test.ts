/**
 * The written release policy and the release machinery agree: RELEASING.md's table of supported
 * versions is what the package.json files declare, its list of reported entry points is what
 * scripts/api-report.js reports, and lerna is configured as the policy says (fixed mode, every
 * package every release, conventional commits, the root `version` script that moves our peers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './helpers/markdown';
import { PUBLISHED } from './helpers/published';

const { staleReferences } = require('../../../scripts/sync-versions.js') as {
  staleReferences: (root?: string) => { version: string; stale: { file: string; field: string; name: string; spec: string }[] };
};

const text = (path: string) => readFileSync(join(REPO, path), 'utf8');
const releasing = text('RELEASING.md');
const manifest = (name: string) => PUBLISHED.find((p) => p.manifest.name === name)!.manifest;

/** The rows of the supported-versions table: first cell (without backticks) -> second cell. */
function supportedVersions(): Map<string, string> {
  const table = /<!-- supported-versions: start -->\n([\s\S]*?)<!-- supported-versions: end -->/.exec(releasing)?.[1];
  if (!table) throw new Error('RELEASING.md has no supported-versions table.');
  const cell = (c: string) => c.trim().replace(/^`|`$/g, '').replace(/\\\|/g, '|');
  return new Map(
    table
      .trim()
      .split('\n')
      .slice(2)
      .map(
        (row) =>
          row
            .split(/(?<!\\)\|/)
            .slice(1, 3)
            .map(cell) as [string, string],
      ),
  );
}

describe('RELEASING.md and the release configuration', () => {
  it('the supported Node.js range is engines.node of every published package', () => {
    const node = supportedVersions().get('Node.js');
    expect(PUBLISHED.map((p) => [p.manifest.name, p.manifest.engines?.node])).toEqual(PUBLISHED.map((p) => [p.manifest.name, node]));
  });

  /** The table's rows for these peers of `packageName`: the same ranges, "optional peer" where the package says so. */
  function expectRowsMatchPeers(packageName: string, peers: string[]) {
    const m = manifest(packageName);
    const table = supportedVersions();
    expect({ packageName, peers: peers.length > 0 }).toEqual({ packageName, peers: true });
    expect(Object.fromEntries(peers.map((name) => [name, table.get(name)]))).toEqual(Object.fromEntries(peers.map((name) => [name, m.peerDependencies![name]])));
    for (const name of peers) {
      expect({ name, optional: rowOf(name).includes('optional peer') }).toEqual({ name, optional: m.peerDependenciesMeta?.[name]?.optional === true });
    }
  }
  const rowOf = (name: string) => releasing.split('\n').find((l) => l.startsWith(`| \`${name}\``))!;
  const peersOf = (packageName: string, keep: (name: string) => boolean) => Object.keys(manifest(packageName).peerDependencies!).filter(keep);

  it("the supported MCP SDK versions are @toolwright/server's peer dependencies, optional where the table says so", () => {
    expectRowsMatchPeers(
      '@toolwright/server',
      peersOf('@toolwright/server', (name) => name.startsWith('@modelcontextprotocol/')),
    );
    // Every SDK package any published package depends on is in the table.
    const table = supportedVersions();
    const everySdk = PUBLISHED.flatMap((p) => Object.keys({ ...p.manifest.dependencies, ...p.manifest.peerDependencies })).filter((n) => n.startsWith('@modelcontextprotocol/'));
    expect(everySdk.filter((n) => !table.has(n))).toEqual([]);
  });

  it("the supported NestJS versions are @toolwright/nestjs's peer dependencies, optional where the table says so", () => {
    expectRowsMatchPeers(
      '@toolwright/nestjs',
      peersOf('@toolwright/nestjs', (name) => name.startsWith('@nestjs/')),
    );
  });

  it("the supported framework versions are the adapters' peer dependencies, optional where the table says so, both ends tested", () => {
    const frameworkRanges: string = JSON.parse(text('package.json')).scripts['test:framework-ranges'];
    for (const adapter of ['express', 'fastify', 'hono', 'next']) {
      // Type packages are checked by the type check, not run; @toolwright/* move with the release.
      const frameworks = peersOf(`@toolwright/${adapter}`, (name) => !name.startsWith('@toolwright/') && !name.startsWith('@types/'));
      expectRowsMatchPeers(`@toolwright/${adapter}`, frameworks);
      for (const name of frameworks) {
        const row = rowOf(name);
        expect({ name, bothEnds: row.includes('both ends') && row.includes('`npm run test:framework-ranges`') }).toEqual({ name, bothEnds: true });
      }
      expect({ adapter, ranTogether: frameworkRanges.split(' && ').includes(`node scripts/test-peer-range.js ${adapter}`) }).toEqual({ adapter, ranTogether: true });
    }
    // npm test runs each of them after jest, in its queue, skipping an end that is the lockfile's (jest ran on it).
    const scripts = JSON.parse(text('package.json')).scripts as Record<string, string>;
    expect(scripts.test).toContain('test:after-build');
    expect(scripts['test:after-build']).toMatch(/ jest && npm run test:after-jest$/);
    for (const family of ['express', 'fastify', 'hono', 'next', 'eslint', 'sdk', 'nest']) {
      const queued = scripts['test:after-jest'].includes(`'test:peer-range ${family} --skip-locked'`);
      expect({ family, queued }).toEqual({ family, queued: true });
    }
  });

  it("the supported ESLint and typescript-eslint versions are @toolwright/eslint-plugin's peer dependencies, both ends tested", () => {
    const linters = peersOf('@toolwright/eslint-plugin', (name) => name === 'eslint' || name === 'typescript-eslint');
    expectRowsMatchPeers('@toolwright/eslint-plugin', linters);
    for (const name of linters) {
      expect({ name, bothEnds: rowOf(name).includes('both ends') && rowOf(name).includes('`npm run test:framework-ranges`') }).toEqual({ name, bothEnds: true });
    }
    const frameworkRanges: string = JSON.parse(text('package.json')).scripts['test:framework-ranges'];
    expect(frameworkRanges.split(' && ')).toContain('node scripts/test-peer-range.js eslint');
  });

  it('the entry points RELEASING.md calls public are the ones with an API report', () => {
    for (const folder of ['core', 'server', 'redis', 'express', 'fastify', 'nestjs', 'hono', 'next', 'oauth', 'openapi']) {
      const { name, exports } = PUBLISHED.find((p) => p.folder === folder)!.manifest;
      const reported = Object.keys(exports!).filter((s) => s !== './package.json' && s !== './internal');
      const row = releasing.split('\n').find((l) => l.startsWith(`| \`${name}\` |`))!;
      const listed = [...row.split('|')[2].matchAll(/`(\.[^`]*)`/g)].map((m) => m[1]);
      expect({ name, listed: listed.sort() }).toEqual({ name, listed: reported.sort() });
      expect(readdirSync(join(REPO, 'packages', folder, 'etc')).length).toBe(reported.length);
    }
    // Whatever line breaks the formatter gives the list.
    const reportedList = /const PACKAGES_REPORTED = \[([^\]]*)\];/.exec(text('scripts/api-report.js'))?.[1].replace(/\s+/g, ' ').replace(/,\s*$/, '').trim();
    expect(reportedList).toBe(
      "'packages/core', 'packages/server', 'packages/redis', 'packages/express', 'packages/fastify', 'packages/nestjs', 'packages/hono', 'packages/next', 'packages/oauth', 'packages/openapi'",
    );
  });

  it('lerna: one version for every package, every release, from conventional commits; the root version script syncs the peers', () => {
    const lerna = JSON.parse(text('lerna.json'));
    expect(lerna).toMatchObject({ packages: ['packages/*'], npmClient: 'npm', command: { version: { conventionalCommits: true, forcePublish: true, allowBranch: 'main' } } });
    expect(lerna.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(JSON.parse(text('package.json')).scripts).toMatchObject({ version: 'node scripts/sync-versions.js' });
    expect(staleReferences(REPO)).toEqual({ version: lerna.version, stale: [] });
    const folders = readdirSync(join(REPO, 'packages')).sort();
    expect(PUBLISHED.map((p) => p.folder).sort()).toEqual(folders);
  });

  it('every published package is public, with provenance, for the supported Node.js, and says what it ships', () => {
    for (const { manifest: m } of PUBLISHED) {
      expect({ name: m.name, private: m.private, publishConfig: m.publishConfig }).toEqual({ name: m.name, private: undefined, publishConfig: { access: 'public', provenance: true } });
      expect({ name: m.name, sideEffects: m.sideEffects === false || Array.isArray(m.sideEffects) }).toEqual({ name: m.name, sideEffects: true });
    }
  });
});
