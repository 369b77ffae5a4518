import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { serveStdio } from '@toolwright/server/stdio';
import { waitFor } from './fixtures/waitFor';

/**
 * A stdio connection the app cannot serve (a `task: 'required'` tool without `tasks()`, served
 * by `serveStdio` called directly, which does not refuse before it reads): each request is
 * answered with -32603, and the reason is in the app's log once, whichever era the client
 * speaks, however many requests it sends.
 */
class Exports {
  @Tool({ description: 'Exports everything (only as a task).', task: 'required' })
  exportAll() {
    return 'exported';
  }
}

const REASON = "Exports.exportAll (app 'alone') runs only as a task";
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const FIRST = {
  '2025-11-25': (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
  '2026-07-28': (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: modernMeta } }),
};

/** A logger that keeps every line at every level, with the message of an error given as data. */
function recording(logged: string[]) {
  const keep = (level: string) => (message: string, data?: unknown) => void logged.push(`${level}: ${message} ${data instanceof Error ? data.message : JSON.stringify(data ?? '')}`);
  return { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

describe('a stdio connection the app cannot serve', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('%s: every request gets -32603, and the reason is logged once', async (era) => {
    const logged: string[] = [];
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports], logger: recording(logged) });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const answers: { id?: unknown; error?: { code: number } }[] = [];
    stdout.on('data', (chunk: Buffer) =>
      answers.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as (typeof answers)[number]),
      ),
    );
    const listener = await serveStdio(app, { transport: 'stdio', stdin, stdout, exitOnClose: false });
    try {
      stdin.write(`${JSON.stringify(FIRST[era](1))}\n`);
      await waitFor(() => answers.length >= 1, 'an answer to the first request');
      stdin.write(`${JSON.stringify(FIRST[era](2))}\n`);
      await waitFor(() => answers.length >= 2, 'an answer to the second request');
      expect(answers).toEqual([
        expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32603 }) }),
        expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32603 }) }),
      ]);
      expect(logged.filter((line) => line.includes(REASON))).toHaveLength(1);
    } finally {
      stdin.end();
      await listener.close();
    }
  });
});
