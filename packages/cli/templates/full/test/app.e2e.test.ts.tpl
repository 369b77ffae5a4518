import 'reflect-metadata';
import { createTestClient, type LegacyClient } from '@toolwright/server/testing';
import { Container } from 'typedi';
import { {{appFactory}} } from '../src/app';
import { AuditTrail } from '../src/audit.middleware';
import { ClockService } from '../src/clock.service';

type CallResult = Awaited<ReturnType<LegacyClient['callTool']>>;
const text = (result: CallResult) => (result.content as { text: string }[])[0].text;

describe('{{serverName}} through a real MCP client (in memory)', () => {
  let client: LegacyClient;
  beforeAll(async () => {
    client = await createTestClient(await {{appFactory}}(), {
      // Replace a service for this client: the loan desk gets this clock instead of the real one.
      overrides: [[ClockService, { now: () => new Date('2030-01-01T12:00:00Z') }]],
      // elicitation: the user's answer to reserve_book's question.
      elicitation: { action: 'accept', content: { branch: 'harbour' } },
    });
  });
  afterAll(() => client.close());

  it('lists the tools with their input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_books', 'lend_book', 'reserve_book', 'overdue_report']);
    expect(tools[0].inputSchema).toMatchObject({
      required: ['query'],
      properties: { genre: { type: 'string', enum: ['fiction', 'science', 'history'] }, limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 } },
    });
    expect(tools[1].outputSchema).toMatchObject({ required: ['bookId', 'title', 'dueDate', 'renewed'] });
  });

  it('searches with a DTO input', async () => {
    const found = JSON.parse(text(await client.callTool({ name: 'search_books', arguments: { query: 'dune', genre: 'fiction' } })));
    expect(found.map((b: { title: string }) => b.title)).toEqual(['Dune', 'Children of Dune']);
  });

  it('lends a book with structured output, using the injected clock', async () => {
    const result = await client.callTool({ name: 'lend_book', arguments: { bookId: 1 } });
    expect(result.structuredContent).toEqual({ bookId: 1, title: 'Dune', dueDate: '2030-01-22', renewed: false });
  });

  it('asks the user where to pick up a reserved book', async () => {
    expect(text(await client.callTool({ name: 'reserve_book', arguments: { bookId: 2 } }))).toBe("Reserved 'A Brief History of Time' for pickup at the harbour branch.");
  });

  it('serves the catalogue and single books as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['library://catalogue']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(['library://books/{id}']);
    const book = await client.readResource({ uri: 'library://books/2' });
    expect(JSON.parse((book.contents[0] as { text: string }).text)).toMatchObject({ title: 'A Brief History of Time' });
    await expect(client.readResource({ uri: 'library://books/99' })).rejects.toThrow('There is no book 99.');
    // An integer variable has one spelling: others name no book, rather than book 1.
    for (const id of ['0x1', '1e0', '+1', '01', '1.0', '0b1', '%201']) {
      await expect(client.readResource({ uri: `library://books/${id}` })).rejects.toThrow(/id/);
    }
    expect(JSON.parse(((await client.readResource({ uri: 'library://books/1' })).contents[0] as { text: string }).text)).toHaveProperty('title');
  });

  it('fills a prompt with the books on the shelf', async () => {
    const { messages } = await client.getPrompt({ name: 'recommend', arguments: { genre: 'history' } });
    expect(messages).toHaveLength(1);
    expect((messages[0].content as { text: string }).text).toContain('Recommend one of these history books');
  });

  it('records every call in the audit trail (the app middleware)', async () => {
    await client.callTool({ name: 'search_books', arguments: { query: 'history' } });
    expect(Container.get(AuditTrail).entries.at(-1)).toMatch(/^tool search_books \(\d+ ms\)$/);
  });

  it('answers a book on loan and bad arguments with tool errors', async () => {
    expect(text(await client.callTool({ name: 'lend_book', arguments: { bookId: 3 } }))).toBe("'The Guns of August' is on loan. Suggest another book, or try again later.");
    const bad = await client.callTool({ name: 'search_books', arguments: { query: '', genre: 'poetry' } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('- genre:');
  });
});
