import 'reflect-metadata';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, Tool, type ToolLogger } from '@toolwright/core';
import { createApp, defineExtension, skills, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * Skills hot reload (`skills({ dir, watch: true })`, on by default under `toolwright dev`):
 * while the app runs, adding or editing a SKILL.md changes skills/list and resources/list and
 * sends notifications/resources/list_changed; a SKILL.md that breaks a rule is logged and the
 * last good skills keep being served; the watch ends when the app stops.
 */
const FIXTURE = join(__dirname, 'fixtures', 'skills');
const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
type Client = Awaited<ReturnType<typeof createTestClient>>;
const list = async (client: Client) =>
  ((await client.request({ method: 'skills/list', params: {} } as never, ANY as never)) as { skills: { uri: string; frontmatter: { description: string } }[] }).skills;
const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

class Tools {
  @Tool({ description: 'A tool beside the skills.' })
  ping() {
    return 'pong';
  }
}

describe('skills hot reload', () => {
  let dir: string;
  let app: App;
  let client: Client;
  const changes: string[] = [];
  const warnings: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolwright-skills-'));
    cpSync(FIXTURE, dir, { recursive: true });
    const logger: ToolLogger = { debug: () => undefined, info: () => undefined, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
    app = await createApp({ name: 'skilled', version: '1.0.0', tools: [Tools], logger, extensions: [skills({ dir, watch: true })] });
    await app.start();
    client = await createTestClient(app);
    client.setNotificationHandler('notifications/resources/list_changed', () => void changes.push('resources'));
  });
  afterAll(async () => {
    await client?.close();
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a skill added while it runs, and tells the client', async () => {
    expect((await list(client)).map((s) => s.uri)).toEqual(['skill://code-review/SKILL.md', 'skill://release-notes/SKILL.md']);
    mkdirSync(join(dir, 'triage'));
    writeFileSync(join(dir, 'triage', 'SKILL.md'), skillMd('triage', 'Sort incoming issues by severity.'));
    await waitFor(async () => (await list(client)).some((s) => s.uri === 'skill://triage/SKILL.md'), 'the new skill in skills/list');
    await waitFor(() => changes.length > 0, 'notifications/resources/list_changed');
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('skill://triage/SKILL.md');
    expect(((await client.readResource({ uri: 'skill://triage/SKILL.md' })).contents[0] as { text: string }).text).toBe(skillMd('triage', 'Sort incoming issues by severity.'));
  });

  it('serves an edited SKILL.md: its description and digest change, and the client is told', async () => {
    const before = changes.length;
    writeFileSync(join(dir, 'release-notes', 'SKILL.md'), skillMd('release-notes', 'Write release notes, newest first.'));
    await waitFor(
      async () => (await list(client)).find((s) => s.uri === 'skill://release-notes/SKILL.md')?.frontmatter.description === 'Write release notes, newest first.',
      'the edit in skills/list',
    );
    await waitFor(() => changes.length > before, 'another list_changed');
    const listed = (await client.listResources()).resources.find((r) => r.uri === 'skill://release-notes/SKILL.md');
    expect(listed?.description).toBe('Write release notes, newest first.');
  });

  it('keeps the last good skills when a SKILL.md breaks a rule, and logs what to fix', async () => {
    writeFileSync(join(dir, 'triage', 'SKILL.md'), skillMd('not-triage', 'A name that is not its folder.'));
    await waitFor(() => warnings.some((w) => w.includes('cannot be served')), 'the warning');
    expect(warnings.join('\n')).toContain('triage');
    expect((await list(client)).find((s) => s.uri === 'skill://triage/SKILL.md')?.frontmatter.description).toBe('Sort incoming issues by severity.');
  });

  it("runs an extension's start hook with the app on start, and what it returned on stop", async () => {
    const events: string[] = [];
    const probe = defineExtension({
      id: 'com.example/probe',
      start: (live) => {
        events.push(`start ${typeof live.add} ${typeof live.resources.remove}`);
        return () => void events.push('stop');
      },
    });
    const other = await createApp({ name: 'probe', version: '1.0.0', tools: [Tools], extensions: [probe] });
    await other.start();
    expect(events).toEqual(['start function function']);
    await other.stop();
    expect(events).toEqual(['start function function', 'stop']);
    expect(() => defineExtension({ id: 'com.example/bad', start: 5 as never })).toThrow(ConfigError);
  });
});
