import 'reflect-metadata';
import { Ctx, Param, Tool, type ElicitationSchema, type ToolContext } from '@toolwright/core';
import { createApp, tasks } from '@toolwright/server';
import type { SessionTransport } from '../src/http/HttpSession';
import { cancellationsOf, recordAcceptedChanges } from '../src/http/clusterMessages';
import type { JSONRPCMessage } from '../src/sdk/sdk';
import { listenInMemory } from './fixtures/memoryStdio';

/**
 * Only a notification cancels: a request (it has an id) named `notifications/cancelled` is
 * answered -32601 and cancels nothing. Three places took it for a cancellation:
 * - a cluster relayed it to every instance as a cancellation of the call it names (`cancellationsOf`);
 * - a cluster forgot the change (log level, subscription) of the request it names, so the
 *   server accepted the change and the cluster never recorded it (`recordAcceptedChanges`);
 * - over stdio, it closed the extensions' part of the `subscriptions/listen` it names
 *   (`extendStdioListens`): the tasks the stream follows were heard of no more.
 */
describe('a request named notifications/cancelled cancels nothing', () => {
  const named = { jsonrpc: '2.0', id: 9, method: 'notifications/cancelled', params: { requestId: 1 } };
  const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };

  it('in a cluster, is no cancellation to relay', () => {
    expect(cancellationsOf(named)).toEqual([]);
    expect(cancellationsOf([named, cancel])).toEqual([cancel]);
  });

  it('in a cluster, leaves the change of the request it names to be recorded once it succeeds', async () => {
    const sent: JSONRPCMessage[] = [];
    const transport = { onmessage: () => {}, send: async (message: JSONRPCMessage) => void sent.push(message) } as unknown as SessionTransport;
    const recorded: unknown[] = [];
    recordAcceptedChanges(transport, async (change) => void recorded.push(change));
    transport.onmessage?.({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'debug' } } as JSONRPCMessage);
    transport.onmessage?.(named as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} } as JSONRPCMessage);
    expect(recorded).toEqual([{ logLevel: 'debug' }]);
    // A notification still forgets it.
    transport.onmessage?.({ jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'error' } } as JSONRPCMessage);
    transport.onmessage?.({ ...cancel, params: { requestId: 2 } } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 2, result: {} } as JSONRPCMessage);
    expect(recorded).toEqual([{ logLevel: 'debug' }]);
  });

  it('over stdio, leaves the subscriptions/listen it names streaming task notifications', async () => {
    const CONFIRM: ElicitationSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };
    class Jobs {
      @Tool({ description: 'Asks, then finishes.', task: 'required' })
      async gated(@Param('label', { type: () => String }) label: string, @Ctx() ctx: ToolContext) {
        const answer = await ctx.elicit(`Finish ${label}?`, CONFIRM, { key: 'confirm' });
        return answer.action === 'accept' ? `finished ${label}` : `left ${label}`;
      }
    }
    const silent = { debug() {}, info() {}, warn() {}, error() {} };
    const app = await createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs], extensions: [tasks({ logger: silent })], logger: silent });
    const stdio = await listenInMemory(app);
    try {
      const _meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
      };
      stdio.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gated', arguments: { label: 'report' }, _meta } });
      const taskId = ((await stdio.answer(1)).result as { taskId: string }).taskId;
      stdio.send({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { taskIds: [taskId] }, _meta } });
      const onStream = async (status: string) => {
        for (let i = 0; i < 400; i++) {
          const found = stdio.out.find((m) => {
            const params = m.params as { status?: unknown; _meta?: Record<string, unknown> } | undefined;
            return m.method === 'notifications/tasks' && params?.status === status && params._meta?.['io.modelcontextprotocol/subscriptionId'] === 'listen';
          });
          if (found) return found;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return undefined;
      };
      expect(await onStream('input_required')).toBeDefined();

      stdio.send({ jsonrpc: '2.0', id: 'named', method: 'notifications/cancelled', params: { requestId: 'listen', _meta } });
      expect((await stdio.answer('named')).error).toMatchObject({ code: -32601 });

      stdio.send({ jsonrpc: '2.0', id: 2, method: 'tasks/update', params: { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, _meta } });
      await stdio.answer(2);
      expect(await onStream('completed')).toMatchObject({ params: { taskId } });
    } finally {
      await stdio.close();
    }
  });
});
