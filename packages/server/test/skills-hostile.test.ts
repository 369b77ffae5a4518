import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuildError, type ToolLogger } from '@toolwright/core';
import { createApp, skills, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { errorOf, rawRequest as request, type TestClient as Client } from './fixtures/rawRequest';

/**
 * The Skills extension against a hostile client and a hostile folder: names and paths from
 * the wire that try to leave the skills folder are refused like unknown ones; a published
 * file replaced on disk (by a symlink, a larger file) is refused without being read, with no
 * path on the wire and what to fix in the log; a folder with a symlink or a file over the
 * limit fails the build with a fix that fits the problem. FIFOs: skills-fifo.test.ts.
 */
const skillMd = (name: string) => `---\nname: ${name}\ndescription: A skill named ${name}.\n---\n\n# ${name}\n`;

/** A fresh skills folder with skill `a` and its files `refs/<name>.md`, each holding 'hello'. */
function folder(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-skills-hostile-'));
  mkdirSync(join(dir, 'a', 'refs'), { recursive: true });
  writeFileSync(join(dir, 'a', 'SKILL.md'), skillMd('a'));
  for (const name of names) writeFileSync(join(dir, 'a', 'refs', `${name}.md`), 'hello');
  return dir;
}

describe('skills() from the wire: nothing outside the published files', () => {
  let dir: string;
  let app: App;
  beforeAll(async () => {
    dir = folder(['x']);
    writeFileSync(join(dir, 'a', 'refs', '.hidden'), 'not published');
    app = await createApp({ name: 'skilled', version: '1.0.0', tools: [], extensions: [skills({ dir })] });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

    it.each([
      'skill://a/refs/.hidden',
      'skill://a/refs/y.md',
      'skill://../../../../etc/passwd',
      'skill://..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      'skill:///etc/passwd',
      'skill://a/../../../../etc/passwd',
      'skill://a\\..\\..\\etc\\passwd',
      'skill://a/refs/x.md%00',
      'skill://a/refs/ｘ.md',
      'skill://__proto__',
      'skill://constructor/prototype',
    ])('refuses %s as an unknown resource, quoting only the request', async (uri) => {
      const error = await errorOf(client.readResource({ uri }));
      expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Resource not found: skill:\/\//) });
      expect(JSON.stringify(error)).not.toContain(dir);
      expect(JSON.stringify(error)).not.toContain('root:');
      expect(await errorOf(client.readResource({ uri: 'skill://a/refs/x.md' }))).toBeUndefined();
    });

    it('quotes control characters from the wire as \\uXXXX, so a terminal showing the message runs no escape sequence', async () => {
      const read = await errorOf(client.readResource({ uri: 'skill://%1B%5B2J%1B%5B31mgotcha' }));
      expect(read?.message).toBe('Resource not found: skill://\\u001b[2J\\u001b[31mgotcha');
      const get = await errorOf(request(client, 'skills/get', { uri: '\u001b[2J\u001b]0;x\u0007' }));
      expect(get?.message).toMatch(/^Unknown skill: \\u001b\[2J\\u001b\]0;x\\u0007\. /);
      const directory = await errorOf(request(client, 'resources/directory/read', { uri: 'skill://a\r\nforged' }));
      expect(directory?.message).toMatch(/^Not a directory: skill:\/\/a\\u000d\\u000aforged\. /);
    });

    it.each(['skill://../a/SKILL.md', 'skill://a/../a/SKILL.md', '__proto__', 'toString'])('refuses skills/get and a directory read of %s like an unknown name', async (uri) => {
      expect(await errorOf(request(client, 'skills/get', { uri }))).toMatchObject({ code: -32602, message: expect.stringMatching(/^Unknown skill: /) });
      expect(await errorOf(request(client, 'resources/directory/read', { uri }))).toMatchObject({ code: -32602, message: expect.stringMatching(/^Not a directory: /) });
    });
  });
});

describe('skills() when a published file changes on disk while the server runs', () => {
  let dir: string;
  let app: App;
  const logged: string[] = [];
  beforeAll(async () => {
    dir = folder(['link', 'big', 'kept']);
    const note = (message: string, detail?: unknown) => void logged.push(`${message} ${detail instanceof Error ? detail.message : ''}`);
    const logger: ToolLogger = { debug: () => undefined, info: () => undefined, warn: note, error: note };
    app = await createApp({ name: 'skilled', version: '1.0.0', tools: [], logger, extensions: [skills({ dir })] });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe.each([
    ['2026-07-28', 'memory'],
    ['2025-11-25', 'http'],
  ] as const)('%s over %s', (protocol, transport) => {
    let client: Client;
    beforeAll(async () => {
      client = await createTestClient(app, { protocol, transport } as never);
    });
    afterAll(() => client.close());

    it('refuses a file replaced by a symlink to /etc/passwd, without its content or a path', async () => {
      const link = join(dir, 'a', 'refs', 'link.md');
      rmSync(link, { force: true });
      symlinkSync('/etc/passwd', link);
      const error = await errorOf(client.readResource({ uri: 'skill://a/refs/link.md' }));
      expect(error).toMatchObject({ code: -32603 });
      expect(JSON.stringify(error)).not.toContain(dir);
      expect(JSON.stringify(error)).not.toContain('root:');
    });

    it('refuses a file that grew on disk unread, and says in the log what to do', async () => {
      writeFileSync(join(dir, 'a', 'refs', 'big.md'), Buffer.alloc(8 * 1024 * 1024, 'x'));
      logged.length = 0;
      const error = await errorOf(client.readResource({ uri: 'skill://a/refs/big.md' }));
      expect(error).toMatchObject({ code: -32603 });
      expect(logged.join('\n')).toContain(`a/refs/big.md is ${8 * 1024 * 1024} bytes on disk, not the 5 the server published`);
      expect(await errorOf(client.readResource({ uri: 'skill://a/refs/kept.md' }))).toBeUndefined();
    });
  });
});

describe('skills() refusing a hostile folder at build, with the fix for each problem', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  const build = async (prepare: (dir: string) => void, limits?: { bytes?: number }) => {
    const dir = folder([]);
    dirs.push(dir);
    prepare(dir);
    const failed = await createApp({ name: 'skilled', version: '1.0.0', tools: [], extensions: [skills({ dir, ...(limits && { limits }) })] }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(BuildError);
    return (failed as Error).message;
  };

  it('names a symlink (in a skill or beside the skills) and says to copy the file, without "(skipped)"', async () => {
    const inSkill = await build((dir) => symlinkSync('/etc/passwd', join(dir, 'a', 'passwd.md')));
    expect(inSkill).toContain('skills a/passwd.md: symlinks and other special files are not followed');
    expect(inSkill).toContain('Fix: replace the symlink, FIFO or device with a copy of the plain file');
    const beside = await build((dir) => symlinkSync('/etc', join(dir, 'etc')));
    expect(beside).toContain('skills etc: symlinks and other special files are not followed; copy the file instead\n');
    expect(beside).not.toContain('skipped');
  });

  it('refuses a file larger than a skill may publish unread, and says how to raise the limit', async () => {
    const message = await build((dir) => writeFileSync(join(dir, 'a', 'big.bin'), Buffer.alloc(2048)), { bytes: 1024 });
    expect(message).toContain('a/big.bin is 2048 bytes, more than the 1024 one skill may publish');
    expect(message).toContain('Fix: make the skill smaller (or split it into several skills), or raise skills({ limits: { files, bytes } })');
  });
});
