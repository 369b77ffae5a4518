import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';

/**
 * Every app server hands the SDK Toolwright's JSON Schema validator in place of the SDK's default
 * (ajv with ajv-formats), which the SDK reads in elicitInput. A form's `format: 'date'` or
 * `'date-time'` answer on a day that does not exist (2025-02-30) is refused as the default
 * refused it (Date.parse, which V8 rolls over to March 2, once let it through).
 */
class Plain {
  @Tool({ description: 'Says hello.' })
  hello() {
    return 'hello';
  }
}
const FORM = { type: 'object' as const, properties: { day: { type: 'string' as const, format: 'date' as const }, at: { type: 'string' as const, format: 'date-time' as const } } };

async function pair(server: Server, answer: unknown) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', () => answer as never);
  await client.connect(clientSide);
  return client;
}

describe('review 7: elicitInput date formats', () => {
  for (const content of [{ day: '2025-02-30' }, { at: '2025-02-30T10:00:00Z' }]) {
    it(`refuses ${JSON.stringify(content)} as the SDK's default validator does`, async () => {
      const answer = { action: 'accept', content };
      const plain = new Server({ name: 'sdk', version: '1' }, { capabilities: {} });
      const c1 = await pair(plain, answer);
      const sdkVerdict = await plain.elicitInput({ mode: 'form', message: 'When?', requestedSchema: FORM }).then(
        () => 'accepted',
        (e: Error) => `refused: ${e.message}`,
      );
      await c1.close();

      const app = await createApp({ name: 'v', version: '1.0.0', tools: [Plain] });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = (await app.connect(serverSide)) as unknown as Server;
      const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler('elicitation/create', () => answer as never);
      await client.connect(clientSide);
      const twVerdict = await server.elicitInput({ mode: 'form', message: 'When?', requestedSchema: FORM }).then(
        () => 'accepted',
        (e: Error) => `refused: ${e.message}`,
      );
      await client.close();
      expect(sdkVerdict).toMatch(/^refused/);
      expect(twVerdict).toMatch(/^refused/);
    });
  }
});
