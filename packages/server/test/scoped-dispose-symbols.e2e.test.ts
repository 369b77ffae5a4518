import 'reflect-metadata';
import { Scoped, Tool, type ToolLogger } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * A scoped service written for `using` (TypeScript 5.2's explicit resource management) is
 * disposed like one with `dispose()`: its `[Symbol.asyncDispose]()`, else its
 * `[Symbol.dispose]()`, once, after the call; a class with `dispose()` gets only that.
 */
const events: string[] = [];
const errors: string[] = [];
const logger: ToolLogger = { debug() {}, info() {}, warn() {}, error: (message) => void errors.push(message) };

@Scoped('request')
class Connection {
  async [Symbol.asyncDispose]() {
    events.push('connection closed');
  }
}

@Scoped('request')
class FileHandle {
  [Symbol.dispose]() {
    events.push('file closed');
  }
}

@Scoped('request')
class Both {
  dispose() {
    events.push('both: dispose()');
  }
  [Symbol.dispose]() {
    events.push('both: [Symbol.dispose]()');
  }
}

@Scoped('request')
class Broken {
  [Symbol.dispose]() {
    throw new Error('the socket was gone already');
  }
}

@Scoped('request')
class Store {
  constructor(
    readonly connection: Connection,
    readonly file: FileHandle,
    readonly both: Both,
    readonly broken: Broken,
  ) {}

  @Tool({ description: 'Uses every resource once.' })
  touch() {
    return 'touched';
  }
}

describe('disposing request-scoped services written for `using`', () => {
  it('calls [Symbol.asyncDispose]() or [Symbol.dispose]() once after the call, dispose() alone when a class has it, and logs one that fails', async () => {
    const app = await createApp({ name: 'dispose-symbols', version: '1', tools: [Store], logger });
    const client = await createTestClient(app);
    expect(await client.callTool({ name: 'touch', arguments: {} })).toMatchObject({ content: [{ text: 'touched' }] });
    await waitFor(() => events.length === 3, 'the services to be disposed', { detail: () => events.join('\n') });
    expect([...events].sort()).toEqual(['both: dispose()', 'connection closed', 'file closed']);
    expect(errors).toEqual(['[Symbol.dispose]() of Broken failed']);
    await client.close();
  });
});
