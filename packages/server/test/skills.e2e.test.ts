import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuildError, Tool } from '@toolwright/core';
import { createApp, skills, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { errorOf, rawRequest as request, type TestClient as Client } from './fixtures/rawRequest';

/**
 * The Skills extension (SEP-2640) served from a folder, through the real SDK v2 client in both
 * eras and over HTTP: the capability, skills/list and skills/get, SKILL.md in resources/list,
 * every file through resources/read with the digest and size its entry announced, directory
 * reads, and the build failing on a broken SKILL.md.
 */
const DIR = join(__dirname, 'fixtures', 'skills');
/** Every child of a folder, page after page. */
async function directory(client: Client, uri: string): Promise<unknown[]> {
  const all: unknown[] = [];
  let cursor: unknown;
  do {
    const page = await request(client, 'resources/directory/read', { uri, ...(typeof cursor === 'string' && { cursor }) });
    all.push(...(page.resources as unknown[]));
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

class Tools {
  @Tool({ description: 'A tool beside the skills.' })
  ping() {
    return 'pong';
  }
}

describe('skills()', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'skilled', version: '1.0.0', tools: [Tools], extensions: [skills({ dir: DIR, pageSize: 1 })] });
  });

  describe.each([
    ['2025-11-25', 'memory'],
    ['2026-07-28', 'memory'],
    ['2026-07-28', 'http'],
  ] as const)('%s over %s', (protocol, transport) => {
    let client: Client;
    beforeAll(async () => {
      client = await createTestClient(app, { protocol, transport } as never);
    });
    afterAll(() => client.close());

    it('declares the extension (directoryRead) and the resources capability', () => {
      const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown>; resources?: object };
      expect(caps.extensions?.['io.modelcontextprotocol/skills']).toEqual({ directoryRead: true });
      expect(caps.resources).toBeDefined();
    });

    it('lists the skills one entry per page, each with its files, digests and sizes', async () => {
      const first = await request(client, 'skills/list');
      expect((first.skills as unknown[]).length).toBe(1);
      const second = await request(client, 'skills/list', { cursor: first.nextCursor });
      expect(second.nextCursor).toBeUndefined();
      const entries = [...(first.skills as never[]), ...(second.skills as never[])] as { uri: string; frontmatter: { name: string }; resources: { uri: string; digest: string; size: number }[] }[];
      expect(entries.map((e) => e.uri)).toEqual(['skill://code-review/SKILL.md', 'skill://release-notes/SKILL.md']);
      const review = entries[0];
      expect(review.frontmatter).toMatchObject({ name: 'code-review', license: 'MIT' });
      const bytes = readFileSync(join(DIR, 'code-review', 'references', 'checklist.md'));
      expect(review.resources).toContainEqual({ uri: 'skill://code-review/references/checklist.md', digest: sha256(bytes), size: bytes.length });
      expect(review.resources.map((r) => r.uri).sort()).toEqual(['skill://code-review/SKILL.md', 'skill://code-review/references/checklist.md', 'skill://code-review/scripts/diffstat.sh']);
      if (protocol === '2026-07-28') expect(first).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
      expect(await errorOf(request(client, 'skills/list', { cursor: 'bogus' }))).toMatchObject({ code: -32602 });
    });

    it('gets one skill, and refuses an unknown one with -32602', async () => {
      expect(await request(client, 'skills/get', { uri: 'skill://release-notes/SKILL.md' })).toMatchObject({ skill: { frontmatter: { name: 'release-notes' } } });
      for (const uri of ['skill://nope/SKILL.md', '__proto__', 'constructor', 'toString']) expect(await errorOf(request(client, 'skills/get', { uri }))).toMatchObject({ code: -32602 });
    });

    it('lists each SKILL.md as a resource and reads every file as its entry announced', async () => {
      const { resources } = await client.listResources();
      expect(resources).toContainEqual(expect.objectContaining({ uri: 'skill://code-review/SKILL.md', name: 'code-review', mimeType: 'text/markdown' }));
      const manifest = await client.readResource({ uri: 'skill://code-review/SKILL.md' });
      expect(manifest.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: readFileSync(join(DIR, 'code-review', 'SKILL.md'), 'utf8') });
      const script = await client.readResource({ uri: 'skill://code-review/scripts/diffstat.sh' });
      expect(script.contents[0]).toMatchObject({ mimeType: 'text/x-shellscript', text: readFileSync(join(DIR, 'code-review', 'scripts', 'diffstat.sh'), 'utf8') });
      // Nothing beyond the published files: not another path under the folder, not a way out of it.
      for (const uri of ['skill://code-review/missing.md', 'skill://../package.json', 'skill://code-review/../release-notes/SKILL.md', 'skill://__proto__', 'skill://constructor']) {
        expect(await errorOf(client.readResource({ uri }))).toMatchObject({ code: expect.any(Number) });
      }
    });

    it('reads the folders of a skill: files and subfolders (inode/directory); -32602 for a file', async () => {
      expect(await directory(client, 'skill://code-review')).toEqual([
        expect.objectContaining({ uri: 'skill://code-review/SKILL.md', mimeType: 'text/markdown' }),
        { uri: 'skill://code-review/references', name: 'references', mimeType: 'inode/directory' },
        { uri: 'skill://code-review/scripts', name: 'scripts', mimeType: 'inode/directory' },
      ]);
      expect(await directory(client, 'skill://code-review/references')).toEqual([expect.objectContaining({ uri: 'skill://code-review/references/checklist.md', name: 'checklist.md' })]);
      expect(await errorOf(request(client, 'resources/directory/read', { uri: 'skill://code-review/SKILL.md' }))).toMatchObject({ code: -32602 });
    });
  });

  describe('a broken folder', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'tw-skills-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('fails createApp with a BuildError naming the file and the rule', async () => {
      mkdirSync(join(dir, 'deploy'));
      writeFileSync(join(dir, 'deploy', 'SKILL.md'), '---\nname: shipit\ndescription: Deploy.\n---\nBody\n');
      const failed = await createApp({ name: 'x', version: '1', tools: [Tools], extensions: [skills({ dir })] }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(BuildError);
      expect((failed as Error).message).toMatch(/deploy/);
      expect((failed as Error).message).toMatch(/name/);
    });

    it('refuses a file changed on disk after it was published', async () => {
      mkdirSync(join(dir, 'deploy'));
      writeFileSync(join(dir, 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: Deploy.\n---\nBody\n');
      const served = await createApp({ name: 'x', version: '1', tools: [Tools], extensions: [skills({ dir })], logger: { debug() {}, info() {}, warn() {}, error() {} } });
      const client = await createTestClient(served);
      try {
        writeFileSync(join(dir, 'deploy', 'SKILL.md'), '---\nname: deploy\ndescription: Deploy.\n---\nChanged body\n');
        expect(await errorOf(client.readResource({ uri: 'skill://deploy/SKILL.md' }))).toMatchObject({ code: -32603 });
      } finally {
        await client.close();
      }
    });
  });
});
