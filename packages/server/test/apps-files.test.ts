import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BuildError, ConfigError, MCP_APP_MIME_TYPE, Tool, UiResource, UI_EXTENSION, UseGuards, buildRegistry } from '@toolwright/core';
import { apps, createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

/**
 * MCP App views from an HTML file: `@UiResource(uri, { file })` on a class, the path relative
 * to the declaring module (here, this test file), absolute, or a file: URL; read once when the
 * app is built and served from memory; a missing, oversized, non-UTF-8 or non-regular file fails
 * the build with a BuildError naming the class and the path.
 */
const NOTE = join(__dirname, 'fixtures', 'views', 'note.html');
const declaring = { extensions: { [UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } };

@UiResource('ui://note', { file: 'fixtures/views/note.html', title: 'Note', csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false })
class NoteApp {
  @Tool({ description: 'Show the note.', ui: { resource: 'ui://note' } })
  showNote() {
    return 'A note.';
  }
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'toolwright-views-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A class whose view is `file`, declared here (so relative paths start from this folder). */
function viewOf(file: string | URL) {
  @UiResource('ui://view', { file })
  class View {
    @Tool({ description: 'Show it.', ui: { resource: 'ui://view' } })
    show() {
      return 'shown';
    }
  }
  return View;
}

const buildFailure = (cls: new () => unknown) =>
  createApp({ name: 'x', version: '1', tools: [cls] }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('MCP App views from an HTML file', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('lists the view with its size and serves the file, relative to the declaring module (%s)', async (protocol) => {
    const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NoteApp], extensions: [apps()] });
    const client = await createTestClient(app, { protocol, capabilities: declaring } as never);
    try {
      const html = readFileSync(NOTE, 'utf8');
      const ui = { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: false };
      expect((await client.listResources()).resources).toEqual([{ uri: 'ui://note', name: 'note', title: 'Note', mimeType: MCP_APP_MIME_TYPE, size: Buffer.byteLength(html), _meta: { ui } }]);
      expect((await client.readResource({ uri: 'ui://note' })).contents).toEqual([{ uri: 'ui://note', mimeType: MCP_APP_MIME_TYPE, text: html, _meta: { ui } }]);
    } finally {
      await client.close();
    }
  });

  it('reads the file once, at build: a later change on disk is not served', async () => {
    const file = join(tmp, 'once.html');
    writeFileSync(file, '<p>first</p>');
    const app = await createApp({ name: 'x', version: '1', tools: [viewOf(file)] });
    writeFileSync(file, '<p>second</p>');
    const client = await createTestClient(app);
    try {
      const read = async () => ((await client.readResource({ uri: 'ui://view' })).contents[0] as { text: string }).text;
      expect(await read()).toBe('<p>first</p>');
      expect(await read()).toBe('<p>first</p>');
    } finally {
      await client.close();
    }
  });

  it('takes an absolute path and a file: URL', async () => {
    for (const file of [NOTE, pathToFileURL(NOTE), pathToFileURL(NOTE).href]) {
      const app = await createApp({ name: 'x', version: '1', tools: [viewOf(file)] });
      const client = await createTestClient(app);
      const [content] = (await client.readResource({ uri: 'ui://view' })).contents as { text: string }[];
      expect(content.text).toBe(readFileSync(NOTE, 'utf8'));
      await client.close();
    }
  });

  it('applies the class guards to the view like to any resource', async () => {
    @UseGuards(() => false)
    @UiResource('ui://guarded', { file: NOTE })
    class Guarded {
      @Tool({ description: 'Show it.', ui: { resource: 'ui://guarded' } })
      show() {
        return 'shown';
      }
    }
    const client = await createTestClient(await createApp({ name: 'x', version: '1', tools: [Guarded] }));
    try {
      await expect(client.readResource({ uri: 'ui://guarded' })).rejects.toThrow();
    } finally {
      await client.close();
    }
  });

  it('fails the build naming the class and the resolved path when the file is missing', async () => {
    const failed = await buildFailure(viewOf('views/missing.html'));
    expect(failed).toBeInstanceOf(BuildError);
    expect(failed!.message).toContain(`View @UiResource('ui://view'): its view file cannot be read: no file at ${join(__dirname, 'views', 'missing.html')}`);
    expect(failed!.message).toContain("Fix: create or change the file as said, or point `file` at the view's HTML file: a path relative to this module, an absolute path, or a file: URL.");
  });

  it('refuses a directory, a file that is not UTF-8 and one over 5 MiB, each by name', async () => {
    const latin1 = join(tmp, 'latin1.html');
    writeFileSync(latin1, Buffer.from([0x3c, 0x70, 0x3e, 0xe9, 0x3c]));
    const big = join(tmp, 'big.html');
    writeFileSync(big, Buffer.alloc(5 * 1024 * 1024 + 1, 0x20));
    expect((await buildFailure(viewOf(tmp)))!.message).toContain(`${tmp} is not a regular file (a folder, FIFO or device); name the view's HTML file itself`);
    expect((await buildFailure(viewOf(latin1)))!.message).toContain(`${latin1} is not UTF-8 text; save it as UTF-8`);
    expect((await buildFailure(viewOf(big)))!.message).toContain(
      `${big} is 5242881 bytes, more than the 5242880 a view may be; keep large scripts, styles and images out of the HTML and load them from a host the view's csp allows`,
    );
  });

  it('refuses `file` on a method, a class form without it, and a build that cannot read files', () => {
    const onMethod = UiResource('ui://x', { file: 'x.html' }) as unknown as MethodDecorator;
    expect(() => onMethod({}, 'view', {})).toThrow(ConfigError);
    expect(() => onMethod({}, 'view', {})).toThrow(/takes no `file`/);
    expect(() => (UiResource('ui://x') as unknown as ClassDecorator)(class {})).toThrow(/on a class needs the view's HTML file/);
    expect(() => UiResource('ui://x', { file: '' })).toThrow(/`file` is a path or a file: URL/);
    expect(() => buildRegistry({ tools: [viewOf(NOTE)] })).toThrow(/this build has no file reader/);
  });
});
