import 'reflect-metadata';
import { Tool, type JsonSchema } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

// Regression: a loop of bare $refs in an inputSchema built fine, then the first call overflowed the stack.
const loop = {
  type: 'object',
  properties: { shape: { oneOf: [{ $ref: '#/$defs/A' }, { type: 'string' }] } },
  $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } },
} as JsonSchema & { type: 'object' };

// The same names, recursing through a property: a real recursive schema.
const recursive = {
  type: 'object',
  properties: { shape: { oneOf: [{ $ref: '#/$defs/A' }, { type: 'string' }] } },
  $defs: { A: { $ref: '#/$defs/B' }, B: { type: 'object', properties: { inner: { $ref: '#/$defs/A' } }, additionalProperties: false } },
} as JsonSchema & { type: 'object' };

class Looping {
  @Tool({ inputSchema: loop })
  draw(input: unknown) {
    return { text: JSON.stringify(input) };
  }
}

class Recursive {
  @Tool({ inputSchema: recursive })
  draw(input: unknown) {
    return { text: JSON.stringify(input) };
  }
}

describe('an inputSchema whose $refs loop without stepping into a property or an item', () => {
  it('fails createApp with the loop and the fix', async () => {
    await expect(createApp({ name: 'loop', version: '1', tools: [Looping] })).rejects.toThrow(
      /Looping\.draw inputSchema: .*\/\$defs\/A\/\$ref starts a loop of \$refs that never steps into a property or an item \(#\/\$defs\/A -> #\/\$defs\/B -> #\/\$defs\/A\).*give one of them a schema of its own/s,
    );
  });

  it('serves the recursive schema that steps into a property', async () => {
    const client = await createTestClient(await createApp({ name: 'tree', version: '1', tools: [Recursive] }));
    try {
      const good = await client.callTool({ name: 'draw', arguments: { shape: { inner: { inner: {} } } } });
      expect(good.isError).toBeFalsy();
      const bad = await client.callTool({ name: 'draw', arguments: { shape: { inner: { other: 1 } } } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('shape');
    } finally {
      await client.close();
    }
  });
});
