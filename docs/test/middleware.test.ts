/** Runs the snippets of the Middleware and guards page through a real MCP client. */
import { createTestClient } from '@toolwright/server/testing';
import { createNotesApp } from '../snippets/middleware/notes.tools';
import { textOf } from './helpers';

let stderr: jest.SpyInstance;
beforeAll(() => {
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(() => stderr.mockRestore());

describe('middleware and guards page', () => {
  it('serves the notes app: built-ins, function and class middleware, a guard', async () => {
    const app = await createNotesApp();
    const client = await createTestClient(app);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['list_notes', 'read_note']);
      expect(textOf(await client.callTool({ name: 'read_note', arguments: { id: 'welcome' } }))).toBe('Hello!');
      const missing = await client.callTool({ name: 'read_note', arguments: { id: 'nope' } });
      expect(missing).toMatchObject({ isError: true, content: [{ text: "No note 'nope'. Call list_notes to see the ids." }] });
      await expect(client.callTool({ name: 'write_note', arguments: { id: 'a', text: 'b' } })).rejects.toMatchObject({ code: -32602 });
      // The stderr log got timing's and audit's lines.
      const logged = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(logged).toContain("tool 'read_note' ok in");
      expect(logged).toContain("anonymous called tool 'read_note'");
    } finally {
      await client.close();
    }
  });
});
