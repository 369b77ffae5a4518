import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, tasks, TASKS_EXTENSION_ID, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { modernRequest } from './fixtures/modernRequest';

/**
 * The task handle `tools/call` answers is SEP-2663's flat `CreateTaskResult`, plus the empty
 * `content` the SDK's `Server` gives every contentless `tools/call` result (see `createTaskResult`).
 * Should the SDK stop adding it, this fails: then drop the note in taskWire.ts and docs/guide/tasks.md.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

class Reports {
  @Tool({ description: 'Builds a report, as a task.', task: 'required' })
  report() {
    return 'the report';
  }
}

describe('the task handle on the wire (2026-07-28, real HTTP)', () => {
  let app: App;
  let listener: HttpListener;
  beforeAll(async () => {
    app = await createApp({ name: 'handles', version: '1.0.0', tools: [Reports], extensions: [tasks({ ttlMs: 60_000, logger: silent })], logger: silent });
    listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  it("carries CreateTaskResult's fields, and only the SDK's empty content besides", async () => {
    const handle = await modernRequest(listener.url, 'tools/call', { name: 'report', arguments: {} }, { capabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } });
    expect(Object.keys(handle).sort()).toEqual(['_meta', 'content', 'createdAt', 'lastUpdatedAt', 'pollIntervalMs', 'resultType', 'status', 'taskId', 'ttlMs']);
    expect(handle).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, content: [] });
  });
});
