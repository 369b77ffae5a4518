import { dtoSchema } from '../src/schema/dtoSchema';
import { createSchemaContext } from '../src/schema/SchemaContext';
import type { BuildProblem } from '../src/registry/BuildProblem';
import { DTO_SCHEMA_TABLE } from './fixtures/dtoSchemaTable';

describe('class-validator decorator -> JSON Schema table', () => {
  it.each(DTO_SCHEMA_TABLE.map((row) => [`${row.decorator} value: ${row.tsType}`, row] as const))('%s', (_name, row) => {
    const problems: BuildProblem[] = [];
    const ctx = createSchemaContext('Table.row', problems);

    const schema = dtoSchema(row.dto, ctx);

    expect(problems).toEqual([]);
    expect(schema.properties?.value).toStrictEqual(row.schema);
    expect(schema.required ?? []).toEqual(row.required ? ['value'] : []);
    expect(schema.additionalProperties).toBe(false);
    expect(ctx.defs).toEqual({});
  });

  it('has one row per DTO class', () => {
    expect(new Set(DTO_SCHEMA_TABLE.map((row) => row.dto)).size).toBe(DTO_SCHEMA_TABLE.length);
  });
});
