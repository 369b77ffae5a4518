import 'reflect-metadata';
import { CallInterrupt, Ctx, Tool, type ToolContext, type ToolLogger } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { listenInMemory } from './fixtures/memoryStdio';
import { waitFor } from './fixtures/waitFor';

/**
 * A 2025-11-25 tool waiting for the client's answer (`ctx.elicit`, `ctx.sample`,
 * `ctx.listRoots`) whose call ends first: the client cancels it (notifications/cancelled), its
 * timeout passes, or the connection closes. Nothing unexpected happened, so nothing is logged at
 * error level: the wait ends with a `CallInterrupt` (the framework ending the call) whose message
 * says what ended it and what the call was waiting for, which a tool that catches it can read.
 * On the wire the spec holds: no response to a cancelled request; a timed-out call gets its
 * timeout result, once. The server keeps serving.
 * Before: the tool got the SDK's abort error ("MCP error: undefined", a RequestTimeout SdkError),
 * and the server logged "tool '…' threw an unexpected error" at error level with its stack.
 */
const NAME_FORM = { type: 'object', properties: { name: { type: 'string' } } } as const;

/** What each tool caught, in order: the error's message and whether it is a CallInterrupt. */
const caught: { tool: string; message: string; interrupt: boolean }[] = [];
const catching = async <T>(tool: string, ask: () => Promise<T>): Promise<T> => {
  try {
    return await ask();
  } catch (error) {
    caught.push({ tool, message: (error as Error).message, interrupt: CallInterrupt.is(error) });
    throw error;
  }
};

class Waiting {
  @Tool({ description: 'Asks the user, catching what ends the wait (and rethrowing it).' })
  async elicits(@Ctx() ctx: ToolContext) {
    return (await catching('elicits', () => ctx.elicit('Who?', NAME_FORM))).action;
  }
  @Tool({ description: 'Asks the user, without catching anything.' })
  async bare(@Ctx() ctx: ToolContext) {
    return (await ctx.elicit('Who?', NAME_FORM)).action;
  }
  @Tool({ description: "Asks the client's model." })
  async samples(@Ctx() ctx: ToolContext) {
    return catching('samples', () => ctx.sample('Say hi.'));
  }
  @Tool({ description: "Lists the client's roots." })
  async roots(@Ctx() ctx: ToolContext) {
    return (await catching('roots', () => ctx.listRoots())).length;
  }
  @Tool({ description: 'Asks the user, with a short timeout.', timeoutMs: 200 })
  async hurried(@Ctx() ctx: ToolContext) {
    return (await catching('hurried', () => ctx.elicit('Who?', NAME_FORM))).action;
  }
  @Tool({ description: 'Asks the user, waiting 150 ms for the answer.' })
  async briefly(@Ctx() ctx: ToolContext) {
    return (await ctx.elicit('Who?', NAME_FORM, { timeoutMs: 150 })).action;
  }
  @Tool({ description: 'Asks the user with a timeout that is no duration.' })
  async nonsense(@Ctx() ctx: ToolContext) {
    return (await ctx.elicit('Who?', NAME_FORM, { timeoutMs: -1 })).action;
  }
  @Tool({ description: 'Answers at once.' })
  echo() {
    return 'still here';
  }
}

type Line = { level: string; message: string; data: unknown };
const lines: Line[] = [];
const at =
  (level: string) =>
  (message: string, data?: unknown): void => {
    lines.push({ level, message, data });
  };
const logger: ToolLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
const errors = () => lines.filter((line) => line.level === 'error' || line.level === 'warn');

let app: App;
beforeAll(async () => {
  app = await createApp({ name: 'waiting', version: '1.0.0', tools: [Waiting], logger });
});
beforeEach(() => {
  lines.length = 0;
  caught.length = 0;
});

/** The user never answers: the handler's promise stays pending. */
const never = () => new Promise<never>(() => undefined);

describe('2025-11-25, the SDK v2 client in memory', () => {
  test.each([
    ['elicits', 'elicitation'],
    ['samples', 'sampling'],
    ['roots', 'roots/list'],
  ])('%s: the client cancels the call while the tool waits for its answer; nothing is logged as an error', async (tool, what) => {
    let asked = 0;
    const client = await createTestClient(app, {
      elicitation: () => (asked++, never()),
      sampling: () => (asked++, never()),
      roots: () => (asked++, never()),
    });
    try {
      const cancel = new AbortController();
      const call = client.callTool({ name: tool, arguments: {} }, { signal: cancel.signal });
      call.catch(() => undefined);
      await waitFor(() => asked === 1 || undefined, 'the question to the client');
      cancel.abort('the user closed the dialog');
      await expect(call).rejects.toThrow();
      await waitFor(() => caught.length === 1 || undefined, 'the tool to see its wait end');
      expect(caught).toEqual([
        {
          tool,
          message: `The client cancelled the call (the user closed the dialog) while the tool waited for its answer to the ${what} request.`,
          interrupt: true,
        },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(errors()).toEqual([]);
      expect(await client.callTool({ name: 'echo', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'still here' }] });
    } finally {
      await client.close();
    }
  });

  it('a call whose timeout passes while the tool waits gets its timeout result; the tool sees why its wait ended; nothing is logged as an error', async () => {
    const client = await createTestClient(app, { elicitation: never });
    try {
      expect(await client.callTool({ name: 'hurried', arguments: {} })).toEqual({ content: [{ type: 'text', text: "Tool 'hurried' timed out after 200 ms." }], isError: true });
      await waitFor(() => caught.length === 1 || undefined, 'the tool to see its wait end');
      expect(caught).toEqual([{ tool: 'hurried', message: "The call timed out after 200 ms while the tool waited for the client's answer to the elicitation request.", interrupt: true }]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(errors()).toEqual([]);
      expect(await client.callTool({ name: 'echo', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'still here' }] });
    } finally {
      await client.close();
    }
  });

  it('a call still waiting when the client disconnects is not logged as an error', async () => {
    let asked = 0;
    const client = await createTestClient(app, { elicitation: () => (asked++, never()) });
    client.callTool({ name: 'elicits', arguments: {} }).catch(() => undefined);
    await waitFor(() => asked === 1 || undefined, 'the question to the client');
    await client.close();
    await waitFor(() => caught.length === 1 || undefined, 'the tool to see its wait end');
    expect(caught).toEqual([{ tool: 'elicits', message: "The call ended (Connection closed) while the tool waited for the client's answer to the elicitation request.", interrupt: true }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors()).toEqual([]);
  });
});

/**
 * A question's own `timeoutMs` (2025-11-25): how long it waits for the client's answer, by
 * default 10 minutes for a form or sampling (a person answers), 60 s for roots, where the SDK's
 * 60 s request timeout used to fail a form the user took a minute over.
 */
describe("2025-11-25, a question's own timeoutMs", () => {
  it('a client that does not answer in time fails the question with a ToolError that names the wait; the server serves on', async () => {
    const client = await createTestClient(app, { elicitation: never });
    try {
      expect(await client.callTool({ name: 'briefly', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'The client did not answer the elicitation request within 0.15 s. If its answer may take longer, pass a larger timeoutMs with the question.' }],
        isError: true,
      });
      expect(errors()).toEqual([]);
      expect(await client.callTool({ name: 'echo', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'still here' }] });
    } finally {
      await client.close();
    }
  });

  it('a client that answers in time is not cut short', async () => {
    const client = await createTestClient(app, { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    try {
      expect(await client.callTool({ name: 'briefly', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'accept' }] });
    } finally {
      await client.close();
    }
  });

  it('a timeoutMs that is no duration is the tool author’s mistake: an internal error, logged with the fix', async () => {
    const client = await createTestClient(app, { elicitation: never });
    try {
      const result = await client.callTool({ name: 'nonsense', arguments: {} });
      expect(result.isError).toBe(true);
      const logged = lines.find((line) => line.level === 'error');
      expect((logged?.data as Error).message).toBe("A question's timeoutMs must be a positive number of milliseconds (got -1): pass e.g. { timeoutMs: 300_000 } for five minutes.");
    } finally {
      await client.close();
    }
  });
});

describe('2025-11-25 over stdio (raw lines, in memory): the wire', () => {
  type Message = Record<string, unknown> & { id?: unknown; method?: string };
  type Session = Awaited<ReturnType<typeof listenInMemory>>;

  async function openSession(): Promise<Session> {
    const session = await listenInMemory(app);
    const capabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
    session.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } } });
    await session.answer('init');
    session.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return session;
  }

  /** Calls `tool` and waits for the question it sends the client. */
  async function startCall(session: Session, id: string, tool: string): Promise<Message> {
    const from = session.out.length;
    session.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } });
    return waitFor(() => (session.out.slice(from) as Message[]).find((m) => typeof m.method === 'string' && m.id !== undefined), `the question '${tool}' asks`);
  }

  it('a cancelled call that does not catch gets no response, its question is withdrawn, nothing is logged as an error, and the session serves on', async () => {
    const session = await openSession();
    try {
      const question = await startCall(session, 'bare-1', 'bare');
      session.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'bare-1', reason: 'changed my mind' } });
      await waitFor(() => (session.out as Message[]).find((m) => m.method === 'notifications/cancelled'), 'the withdrawn question');
      expect((session.out as Message[]).find((m) => m.method === 'notifications/cancelled')?.params).toMatchObject({ requestId: question.id });
      session.send({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
      expect(await session.answer('ping')).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((session.out as Message[]).some((m) => m.id === 'bare-1')).toBe(false);
      expect(errors()).toEqual([]);

      // A cancellation without a reason, of a call whose tool catches: no response either; the tool reads what happened.
      await startCall(session, 'elicits-1', 'elicits');
      session.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'elicits-1' } });
      await waitFor(() => caught.length === 1 || undefined, 'the tool to see its wait end');
      expect(caught).toEqual([{ tool: 'elicits', message: 'The client cancelled the call while the tool waited for its answer to the elicitation request.', interrupt: true }]);
      session.send({ jsonrpc: '2.0', id: 'echo', method: 'tools/call', params: { name: 'echo', arguments: {} } });
      expect(await session.answer('echo')).toMatchObject({ result: { content: [{ type: 'text', text: 'still here' }] } });
      expect((session.out as Message[]).some((m) => m.id === 'elicits-1')).toBe(false);
      expect(errors()).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
