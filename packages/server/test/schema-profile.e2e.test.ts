import 'reflect-metadata';
import { Tool, type JsonSchema } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';

/** Issue 13: a raw `inputSchema` keyword the validator skipped let a call that breaks it run the method. */
const SCHEMAS: Record<string, { schema: JsonSchema & { type: 'object' }; good: object; bad: object; message: string }> = {
  min_properties: { schema: { type: 'object', minProperties: 1 }, good: { a: 1 }, bad: {}, message: '(arguments): must have at least 1 property' },
  pattern_properties: { schema: { type: 'object', patternProperties: { '^n_': { type: 'number' } } }, good: { n_a: 1 }, bad: { n_a: 'x' }, message: 'n_a: must be a number' },
  dependent_required: { schema: { type: 'object', dependentRequired: { card: ['cvv'] } }, good: { card: '4', cvv: '1' }, bad: { card: '4' }, message: "cvv: is required when 'card' is present" },
  property_names: { schema: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } }, good: { ok: 1 }, bad: { Bad: 1 }, message: 'Bad: is not an allowed property name' },
  if_then_else: {
    schema: { type: 'object', if: { properties: { kind: { const: 'email' } }, required: ['kind'] }, then: { required: ['address'] }, else: { required: ['phone'] } },
    good: { kind: 'email', address: 'a@b.c' },
    bad: { kind: 'email', phone: '1' },
    message: 'address: is required',
  },
  prefix_items: {
    schema: { type: 'object', properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] } } },
    good: { point: [1, 'a'] },
    bad: { point: ['a', 1] },
    message: 'point[0]: must be a number',
  },
  contains: {
    schema: { type: 'object', properties: { tags: { type: 'array', contains: { const: 'urgent' } } } },
    good: { tags: ['x', 'urgent'] },
    bad: { tags: ['x'] },
    message: 'tags: must contain at least 1 item',
  },
};

describe('issue 13: every keyword of a raw inputSchema is enforced through a real client', () => {
  let client: Client;
  const runs: string[] = [];

  beforeAll(async () => {
    class Raw {}
    for (const [name, { schema }] of Object.entries(SCHEMAS)) {
      const proto = Raw.prototype as unknown as Record<string, unknown>;
      proto[name] = () => (runs.push(name), 'ran');
      Tool({ name, inputSchema: schema })(proto, name, Object.getOwnPropertyDescriptor(proto, name)!);
    }
    client = await createTestClient(await createApp({ name: 'profile', version: '1.0.0', tools: [Raw] }));
  });
  afterAll(() => client.close());

  it.each(Object.keys(SCHEMAS))('%s: refuses a breaking call with a field message, without running the method', async (name) => {
    const { good, bad, message } = SCHEMAS[name];
    const refused = await client.callTool({ name, arguments: bad as Record<string, unknown> });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0].text).toContain(message);
    expect(runs).not.toContain(name);
    const accepted = await client.callTool({ name, arguments: good as Record<string, unknown> });
    expect(accepted.isError).toBeFalsy();
    expect(runs).toContain(name);
  });
});
