import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { IsString } from 'class-validator';
import { Ctx, Tool, type ElicitationSchema, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { ElicitationForms } from '../src/pipeline/ElicitationForms';

/**
 * Issue 31, item 15 (the HTTP server's memory grew under load): a tool that writes its
 * elicitation schema as a literal in the call makes a new schema object per call. The forms
 * were cached by object identity, and the request sent carried that same object, which an HTTP
 * session's event store keeps for replay: so every call compiled its form again and its session
 * kept one compiled validator per call, until the session ended. Forms are now cached by content.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The schema objects the tool made, watched without being kept. */
const made: WeakRef<object>[] = [];
const colourForm = (): ElicitationSchema => ({ type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] });

class PickTools {
  @Tool({ description: 'Asks the user for a colour, with a schema written in the call.' })
  async pick(@Ctx() ctx: ToolContext) {
    const form = colourForm();
    made.push(new WeakRef(form));
    const answer = await ctx.elicit('Pick a colour.', form);
    return answer.action === 'accept' ? `picked ${(answer.content as { colour: string }).colour}` : answer.action;
  }
}

describe('elicitation forms are compiled once per schema content (issue 31, item 15)', () => {
  it('an HTTP session that elicits with a new schema object per call keeps none of them (its event store keeps the requests)', async () => {
    const app = await createApp({ name: 'forms', version: '1.0.0', tools: [PickTools] });
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    const client = new Client({ name: 'forms-test', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { colour: 'blue' } }));
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      for (let i = 0; i < 20; i++) {
        const result = await client.callTool({ name: 'pick', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: 'picked blue' }]);
      }
      // WeakRefs are cleared after the job that created them: collect on a later turn.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      // The session is open, and its event store holds the 20 elicitation/create requests it sent.
      // Before: each carried the tool's own object, kept with its compiled form (20 alive).
      const alive = made.filter((ref) => ref.deref() !== undefined).length;
      expect(alive).toBe(0);
    } finally {
      await client.close();
      await listener.close();
    }
  });

  it('gives equal schemas one compiled form, sends a copy the tool cannot change afterwards, and keeps at most its bound', () => {
    const forms = new ElicitationForms(3);
    const first = colourForm();
    const compiled = forms.of(first);
    expect(forms.of(colourForm())).toBe(compiled);
    expect(compiled.requestedSchema).toEqual(first);
    expect(compiled.requestedSchema).not.toBe(first);
    (first.properties.colour as { enum: string[] }).enum.push('green');
    expect(compiled.requestedSchema.properties.colour).toEqual({ type: 'string', enum: ['red', 'blue'] });
    // A changed schema is another form.
    expect(forms.of(first)).not.toBe(compiled);
    for (let i = 0; i < 10; i++) forms.of({ type: 'object', properties: { [`field${i}`]: { type: 'string' } } });
    expect(forms.schemaCount).toBe(3);
  });

  it('keeps compiling a DTO class once, and still refuses an invalid form', () => {
    const forms = new ElicitationForms();
    class Answer {
      @IsString()
      colour!: string;
    }
    expect(forms.of(Answer)).toBe(forms.of(Answer));
    expect(() => forms.of({ type: 'object', properties: { nested: { type: 'object' } } } as unknown as ElicitationSchema)).toThrow(/nested/);
    expect(forms.schemaCount).toBe(0);
  });
});
