/** Runs the snippets of the Resources, Prompts, Completions and Call context pages through a real MCP client. */
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { NoteResources } from '../snippets/resources/notes.resources';
import { noteChanged } from '../snippets/resources/updates';
import { ReviewPrompts } from '../snippets/prompts/review.prompts';
import { TravelPrompts } from '../snippets/completions/travel.prompts';
import { BookingTools, ImportTools } from '../snippets/context/context.tools';
import { textOf } from './helpers';

describe('Resources page', () => {
  it('serves static resources, the template and updates', async () => {
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [NoteResources] });
    const client = await createTestClient(app);
    expect((await client.readResource({ uri: 'notes://index' })).contents).toEqual([{ uri: 'notes://index', mimeType: 'text/plain', text: '1\n2' }]);
    expect((await client.readResource({ uri: 'config://app' })).contents).toEqual([{ uri: 'config://app', mimeType: 'application/json', text: '{"theme":"dark","pageSize":20}' }]);
    expect((await client.readResource({ uri: 'file:///logo.png' })).contents).toEqual([{ uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' }]);
    expect((await client.readResource({ uri: 'notes://2' })).contents).toEqual([{ uri: 'notes://2', mimeType: 'text/plain', text: 'Call Ada' }]);
    await expect(client.readResource({ uri: 'notes://9' })).rejects.toMatchObject({ code: -32602, data: { uri: 'notes://9' } });
    await expect(client.readResource({ uri: 'notes://x' })).rejects.toMatchObject({ code: -32602 });
    await client.subscribeResource({ uri: 'notes://1' });
    expect(noteChanged(app, 1)).toBe(1);
    expect(noteChanged(app, 2)).toBe(0);
    await client.close();
  });
});

describe('Prompts page', () => {
  it('turns arguments into messages', async () => {
    const client = await createTestClient(await createApp({ name: 'docs', version: '0.0.0', tools: [ReviewPrompts] }));
    expect((await client.getPrompt({ name: 'review', arguments: { code: 'x++' } })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Please give a gentle review of this code:\n\nx++' } },
    ]);
    const compare = await client.getPrompt({ name: 'compare', arguments: { uri: 'file:///a.ts', lines: '10' } });
    expect(compare.messages.map((m) => `${m.role}:${m.content.type}`)).toEqual(['user:resource', 'user:image', 'assistant:text', 'user:text']);
    await expect(client.getPrompt({ name: 'compare', arguments: { uri: 'file:///a.ts', lines: 'ten' } })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('Completions page', () => {
  it('completes prompt arguments and template variables', async () => {
    const client = await createTestClient(await createApp({ name: 'docs', version: '0.0.0', tools: [TravelPrompts] }));
    const ref = { type: 'ref/prompt' as const, name: 'plan' };
    expect((await client.complete({ ref, argument: { name: 'city', value: 'p' } })).completion.values).toEqual(['Paris', 'Porto', 'Prague']);
    expect((await client.complete({ ref, argument: { name: 'mode', value: 'pl' } })).completion.values).toEqual(['plane']);
    expect((await client.complete({ ref, argument: { name: 'hotel', value: '' }, context: { arguments: { city: 'Porto' } } })).completion.values).toEqual(['Porto Grand', 'Porto Inn']);
    expect((await client.complete({ ref: { type: 'ref/resource', uri: 'weather://{city}/today' }, argument: { name: 'city', value: 'T' } })).completion.values).toEqual(['Tokyo']);
    await client.close();
  });
});

describe('Call context page', () => {
  it('reports progress and logs', async () => {
    const client = await createTestClient(await createApp({ name: 'docs', version: '0.0.0', tools: [ImportTools] }));
    const progress: number[] = [];
    client.setNotificationHandler('notifications/progress', (n) => void progress.push(n.params.progress));
    const result = await client.request({ method: 'tools/call', params: { name: 'import_folder', arguments: { files: ['a', 'b'] }, _meta: { progressToken: 1 } } });
    expect(textOf(result)).toBe('imported 2 files');
    expect(progress).toEqual([1, 2]);
    await client.close();
  });

  it('elicits, samples and lists roots', async () => {
    const client = await createTestClient(await createApp({ name: 'docs', version: '0.0.0', tools: [BookingTools] }), { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { cabin: 'business', seats: 2 } }));
    client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'Short.' }, model: 'm' }));
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///src' }] }));
    expect(textOf(await client.callTool({ name: 'book_flight', arguments: { to: 'Oslo' } }))).toBe('Booked 2 business seat(s) to Oslo.');
    expect(textOf(await client.callTool({ name: 'summarize', arguments: { text: 'long' } }))).toBe('Short.');
    expect(textOf(await client.callTool({ name: 'folders', arguments: {} }))).toBe('["file:///src"]');
    await client.close();
  });
});
