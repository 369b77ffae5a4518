import { Param, Resource } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createTestClient } from '@toolwright/server/testing';
import { ERAS } from './fixtures/eras';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';

/**
 * Issue 31 item 4: every `resources/read` runs the templates before any access check, and a
 * URI may be as long as the body (4 MiB). A URI past the app's `maxUriLength` (default 2048)
 * that no static resource has is refused with -32602 before any template runs.
 */
class Files {
  @Resource('files://{name}.{ext}')
  file(@Param('name') name: string, @Param('ext') ext: string) {
    return `${name} (${ext})`;
  }

  @Resource('notes://{a}-{b}-{c}')
  note(@Param('a') a: string) {
    return a;
  }
}

/** 1 MiB that made the old matcher try every split of every dot (hours). */
const HOSTILE = `files://${'a.'.repeat(512 * 1024)}/`;
/** The CPU time this process has used since `since` (from `process.cpuUsage()`), in ms: unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
const within = (length: number) => `files://${'n'.repeat(length - 'files://.md'.length)}.md`;

describe('issue 31: resources/read caps the URI length before matching templates', () => {
  let app: App;
  let listener: HttpListener;
  beforeAll(async () => {
    app = await createApp({ name: 'files', version: '1', tools: [Files] });
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  it.each(ERAS.map((era) => [era.name, era] as const))('answers a 1 MiB URI with -32602 at once, in memory, %s', async (_, era) => {
    const client = await createTestClient(app, { era: era.modern ? 'modern' : 'legacy' });
    const started = process.cpuUsage();
    await expect(client.readResource({ uri: HOSTILE })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('at most 2048 characters') });
    // Generous: the old matcher took hours of CPU on this URI. Client and server both run in this process,
    // so its CPU time counts the matching, and a loaded machine's other work does not.
    expect(cpuMsSince(started)).toBeLessThan(2000);
    await client.close();
  });

  // A 2026-07-28 request repeats the URI in its Mcp-Name header, which Node caps at 16 KiB: there the URI is 8 KiB.
  it.each(ERAS.map((era) => [era.name, era] as const))('answers a long URI with -32602 at once over HTTP, without echoing it, %s', async (_, era) => {
    const uri = era.modern ? `files://${'a.'.repeat(4 * 1024)}/` : HOSTILE;
    const message = era.request({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } });
    const session: Record<string, string> = era.modern ? {} : { 'mcp-session-id': await openRawSession(listener.url), 'mcp-protocol-version': era.version };
    // The listener runs in this process: its CPU time counts the matching (hours on the old matcher).
    const started = process.cpuUsage();
    const response = await post(listener.url, message, { ...session, ...era.headers(message) });
    const text = await response.text();
    expect(cpuMsSince(started)).toBeLessThan(2000);
    expect(text.length).toBeLessThan(1000);
    const [answer] = await messagesOf(new Response(text, { headers: response.headers }));
    expect(answer).toMatchObject({ id: 1, error: { code: -32602, message: expect.stringContaining(`the URI is ${uri.length} characters long`) } });
  });

  it('reads a URI of exactly the cap and refuses one past it; the cap is an option', async () => {
    const client = await createTestClient(app);
    expect((await client.readResource({ uri: within(2048) })).contents[0]).toMatchObject({ text: `${'n'.repeat(2048 - 11)} (md)` });
    await expect(client.readResource({ uri: within(2049) })).rejects.toMatchObject({ code: -32602 });
    await expect(client.subscribeResource({ uri: within(2049) })).rejects.toMatchObject({ code: -32602 });
    await client.close();

    const small = await createApp({ name: 'files', version: '1', tools: [Files], maxUriLength: 64 });
    const smallClient = await createTestClient(small);
    expect((await smallClient.readResource({ uri: within(64) })).contents[0]).toMatchObject({ text: `${'n'.repeat(64 - 11)} (md)` });
    await expect(smallClient.readResource({ uri: within(65) })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('at most 64 characters') });
    await smallClient.close();
  });

  it('refuses a maxUriLength that is not a positive integer, saying so', async () => {
    await expect(createApp({ name: 'files', version: '1', tools: [Files], maxUriLength: 0 })).rejects.toThrow(/maxUriLength must be a positive integer/);
  });
});
