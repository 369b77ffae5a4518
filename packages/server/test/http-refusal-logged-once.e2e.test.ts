import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { serveHttp } from '@toolwright/server/http';

/**
 * An HTTP endpoint of an app that cannot serve (a `task: 'required'` tool without `tasks()`,
 * served by `serveHttp` called directly, which does not refuse before a request comes): each
 * initialize gets the endpoint's 500, and the app's log has the reason once, not a second
 * "request failed" line for the same refusal.
 */
class Exports {
  @Tool({ description: 'Exports everything (only as a task).', task: 'required' })
  exportAll() {
    return 'exported';
  }
}

const REASON = "Exports.exportAll (app 'alone') runs only as a task";

describe('an HTTP endpoint the app cannot serve', () => {
  it('answers 500 to each initialize, and logs the refusal once, without a "request failed" line for it', async () => {
    const logged: string[] = [];
    const keep = (level: string) => (message: string, data?: unknown) => void logged.push(`${level}: ${message} ${data instanceof Error ? data.message : JSON.stringify(data ?? '')}`);
    const app = await createApp({ name: 'alone', version: '1', tools: [Exports], logger: { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') } });
    const listener = await serveHttp(app, { transport: 'http', port: 0, host: '127.0.0.1', exitOnSignal: false, requestLogLevel: 'silent' });
    try {
      const initialize = (id: number) =>
        fetch(listener.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
        });
      const answers = [await initialize(1), await initialize(2)];
      expect(answers.map((a) => a.status)).toEqual([500, 500]);
      await Promise.all(answers.map((a) => a.text()));
      expect(logged.filter((line) => line.includes(REASON))).toHaveLength(1);
      expect(logged.filter((line) => line.includes('request failed'))).toEqual([]);
    } finally {
      await listener.close();
    }
  });
});
