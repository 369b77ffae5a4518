import { buildRegistry } from '@toolwright/core';
import { PARAM_SCHEMA_TABLE } from './fixtures/paramSchemaTable';

describe('@Param type -> JSON Schema table', () => {
  it.each(PARAM_SCHEMA_TABLE.map((row) => [row.ts, row] as const))('%s', (_ts, row) => {
    const registry = buildRegistry({ tools: [row.cls] });
    const { inputSchema } = registry.tools[0].descriptor;
    expect(inputSchema.properties?.v).toEqual(row.schema);
    expect(inputSchema.required ?? []).toEqual(row.required ? ['v'] : []);
    expect(inputSchema.additionalProperties).toBe(false);
    expect(inputSchema.$schema).toBeUndefined();
  });
});
