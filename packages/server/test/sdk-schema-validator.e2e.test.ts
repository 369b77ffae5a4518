import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, type Server } from '@modelcontextprotocol/server';

/**
 * Every server an app makes gives the SDK's `Server` Toolwright's own JSON Schema validator, so the
 * SDK never makes its default one (which a Worker's bundle then leaves out: see
 * examples/edge/scripts/bundleWorker.mjs). The SDK reads it in `elicitInput` alone, to check a
 * form's answer: driven here through a real SDK client, in memory.
 */
class Plain {
  @Tool({ description: 'Says hello.' })
  hello() {
    return 'hello';
  }
}

const FORM = { type: 'object' as const, properties: { age: { type: 'integer' as const, minimum: 0 }, name: { type: 'string' as const } }, required: ['age'] };

describe("the SDK's JSON Schema validator on an app's servers", () => {
  let app: App;
  let answer: unknown;
  let client: Client;
  let server: Server;

  beforeAll(async () => {
    app = await createApp({ name: 'validator', version: '1.0.0', tools: [Plain] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    server = (await app.connect(serverSide)) as unknown as Server;
    client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', () => answer as never);
    await client.connect(clientSide);
  });
  afterAll(() => client.close());

  it("is Toolwright's: elicitInput refuses an answer that does not fit the form with Toolwright's message", async () => {
    answer = { action: 'accept', content: { age: -1.5, name: 7 } };
    const refused = await server.elicitInput({ mode: 'form', message: 'Who are you?', requestedSchema: FORM }).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    // Toolwright's issue lines (`- path: message`), one for each field.
    expect((refused as Error).message).toContain('Elicitation response content does not match requested schema: - age: ');
    expect((refused as Error).message).toContain('\n- name: ');
  });

  it('accepts an answer that fits, and the server still serves', async () => {
    answer = { action: 'accept', content: { age: 36, name: 'Ada' } };
    await expect(server.elicitInput({ mode: 'form', message: 'Who are you?', requestedSchema: FORM })).resolves.toEqual({ action: 'accept', content: { age: 36, name: 'Ada' } });
    expect(await client.callTool({ name: 'hello', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'hello' }] });
  });

  it("refuses a form outside Toolwright's JSON Schema profile with the keyword and its fix, as an internal error", async () => {
    answer = { action: 'accept', content: { age: 1 } };
    const form = { ...FORM, unevaluatedProperties: false } as unknown as typeof FORM;
    const refused = await server.elicitInput({ mode: 'form', message: 'Who are you?', requestedSchema: form }).catch((error: Error) => error);
    expect((refused as Error).message).toContain('Error validating elicitation response');
    expect((refused as Error).message).toContain('unevaluatedProperties');
  });
});
