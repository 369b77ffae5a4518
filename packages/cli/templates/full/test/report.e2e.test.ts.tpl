import 'reflect-metadata';
import type { App } from '@toolwright/server';
import { createTaskClient, createTestClient, type TaskState } from '@toolwright/server/testing';
import { Container } from 'typedi';
import { {{appFactory}} } from '../src/app';
import { ShelfScanner } from '../src/shelf-scanner.service';

/** Scans at once; while `held`, a shelf waits until the task is cancelled. */
class InstantScanner extends ShelfScanner {
  held = false;
  override async overdueOn(shelf: string, signal: AbortSignal): Promise<number> {
    if (this.held) await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
    return shelf.charCodeAt(0) % 3;
  }
}

describe('overdue_report, the long-running tool', () => {
  const scanner = new InstantScanner();
  let app: App;
  beforeAll(async () => {
    Container.set(ShelfScanner, scanner);
    app = await {{appFactory}}();
  });
  afterAll(() => Container.remove(ShelfScanner));

  it('runs as a task for a client that declared the extension: progress, a question, the report', async () => {
    const client = createTaskClient(app);
    const seen: string[] = [];
    const done = await client.run(
      'overdue_report',
      { branch: 'harbour' },
      {
        onStatus: (task) => seen.push(task.statusMessage ?? task.status),
        answer: ({ method, params }) => {
          expect(method).toBe('elicitation/create');
          expect(params?.message).toBe("Include the members' contacts in the overdue report for harbour?");
          return { action: 'accept', content: { includeContacts: true } };
        },
      },
    );
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Overdue report for harbour: 5 loans overdue on 4 shelves, with member contacts.' }] } });
    expect(seen).toContain('Scanned shelf D of harbour (4 of 4)');
  });

  it('stops when the task is cancelled', async () => {
    scanner.held = true;
    try {
      const client = createTaskClient(app);
      const answer = await client.call('overdue_report', { branch: 'central' });
      const { taskId } = (answer as { task: TaskState }).task;
      await client.cancel(taskId);
      expect(await client.poll(taskId)).toMatchObject({ status: 'cancelled' });
    } finally {
      scanner.held = false;
    }
  });

  it('answers as a plain call to a 2025-11-25 client, which the list tells it may also be a task', async () => {
    const legacy = await createTestClient(app, { elicitation: { action: 'decline' } });
    try {
      const tool = (await legacy.listTools()).tools.find((t) => t.name === 'overdue_report');
      expect(tool?.execution).toEqual({ taskSupport: 'optional' });
      const result = await legacy.callTool({ name: 'overdue_report', arguments: { branch: 'university' } });
      expect((result.content as { text: string }[])[0].text).toBe('Overdue report for university: 5 loans overdue on 4 shelves.');
    } finally {
      await legacy.close();
    }
  });
});
