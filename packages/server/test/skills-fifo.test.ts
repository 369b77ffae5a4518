import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuildError, type ToolLogger } from '@toolwright/core';
import { createApp, skills, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

/**
 * The Skills extension and FIFOs (made with `mkfifo`: Node has no API for one, so this file
 * is a slow test): a FIFO in the folder fails the build by name; a published file replaced by
 * a FIFO while the server runs is refused at once, instead of a read that waits for a writer
 * forever and holds one of libuv's few file-system threads (a handful of such reads would stall
 * every file read of the process, and keep it from exiting).
 */
type Client = Awaited<ReturnType<typeof createTestClient>>;
/** The error a request ends with (undefined: it succeeded), or `'no answer'` when none comes in 3 s. */
const errorOf = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => undefined,
      (e: { code?: unknown; message: string }) => ({ code: e.code, message: e.message }),
    ),
    new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 3000).unref()),
  ]);
const skillMd = (name: string) => `---\nname: ${name}\ndescription: A skill named ${name}.\n---\n\n# ${name}\n`;
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

describe('skills() and FIFOs', () => {
  let dir: string;
  let app: App;
  const logged: string[] = [];
  const fifos: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolwright-skills-fifo-'));
    mkdirSync(join(dir, 'a', 'refs'), { recursive: true });
    writeFileSync(join(dir, 'a', 'SKILL.md'), skillMd('a'));
    for (const name of ['fifo-1', 'fifo-2', 'kept']) writeFileSync(join(dir, 'a', 'refs', `${name}.md`), 'hello');
    const note = (message: string, detail?: unknown) => void logged.push(`${message} ${detail instanceof Error ? detail.message : ''}`);
    const logger: ToolLogger = { debug: () => undefined, info: () => undefined, warn: note, error: note };
    app = await createApp({ name: 'skilled', version: '1.0.0', tools: [], logger, extensions: [skills({ dir })] });
  });
  afterAll(() => {
    // A read still blocked opening a FIFO (the defect this file guards against) is let go by a writer.
    for (const fifo of fifos) {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No read waits on it.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['2026-07-28', 'memory', 'fifo-1'],
    ['2025-11-25', 'http', 'fifo-2'],
  ] as const)('%s over %s: answers a read of a file replaced by a FIFO at once, with an internal error, and keeps serving', async (protocol, transport, name) => {
    const client: Client = await createTestClient(app, { protocol, transport } as never);
    try {
      const fifo = join(dir, 'a', 'refs', `${name}.md`);
      rmSync(fifo);
      mkfifo(fifo);
      fifos.push(fifo);
      logged.length = 0;
      const error = await errorOf(client.readResource({ uri: `skill://a/refs/${name}.md` }));
      expect(error).toMatchObject({ code: -32603 });
      expect(JSON.stringify(error)).not.toContain(dir);
      expect(logged.join('\n')).toContain(`a/refs/${name}.md is not a regular file`);
      expect(await errorOf(client.readResource({ uri: 'skill://a/refs/kept.md' }))).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('fails the build naming a FIFO in a skill, without blocking on it', async () => {
    const other = mkdtempSync(join(tmpdir(), 'toolwright-skills-fifo-'));
    try {
      mkdirSync(join(other, 'a'));
      writeFileSync(join(other, 'a', 'SKILL.md'), skillMd('a'));
      mkfifo(join(other, 'a', 'pipe.md'));
      const failed = await createApp({ name: 'skilled', version: '1.0.0', tools: [], extensions: [skills({ dir: other })] }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(BuildError);
      expect((failed as Error).message).toContain('skills a/pipe.md: symlinks and other special files are not followed');
      expect((failed as Error).message).toContain('Fix: replace the symlink, FIFO or device with a copy of the plain file');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
