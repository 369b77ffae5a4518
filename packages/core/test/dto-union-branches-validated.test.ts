/** Union branches on and off cycles (inlined, or a `$defs` entry of their own): deep values validated through each. */
import { Type } from 'class-transformer';
import { IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { BuildProblem } from '../src/registry/BuildProblem';
import type { Class } from '../src/metadata/Class';
import { dtoSchema } from '../src/schema/dtoSchema';
import type { JsonSchema } from '../src/schema/JsonSchema';
import { createSchemaContext } from '../src/schema/SchemaContext';
import { compileSchemaValidator } from '../src/validation/compileSchemaValidator';
import type { ValidationOutcome } from '../src/validation/ValidationIssue';

function derive(cls: Class): { served: JsonSchema; validate: (value: unknown) => ValidationOutcome; problems: BuildProblem[] } {
  const problems: BuildProblem[] = [];
  const ctx = createSchemaContext('Tools.run', problems);
  const schema = dtoSchema(cls, ctx, {});
  const served = Object.keys(ctx.defs).length > 0 ? { ...schema, $defs: ctx.defs } : schema;
  return { served, validate: compileSchemaValidator(served), problems };
}
const ok = (o: ValidationOutcome) => o.ok;

// S1: a branch on a plain self-cycle, whose union does not come back: inlined as a copy of its $defs entry.
class Chain {
  @IsNumber() n!: number;
  @IsOptional() @ValidateNested() @Type(() => Chain) next?: Chain;
}
class Other {
  @IsString() s!: string;
}
class S1Root {
  @ValidateNested()
  @Type(() => Object, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'chain', value: Chain },
        { name: 'other', value: Other },
      ],
    },
  })
  item!: Chain | Other;
}

// S3: a root held plainly by a class of its graph, and also a branch of a union that class holds.
class S3Root {
  @IsNumber() n!: number;
  @IsOptional() @ValidateNested() @Type(() => S3Child) child?: object;
}

class S3Child {
  @IsOptional() @ValidateNested() @Type(() => S3Root) back?: object;
  @IsOptional()
  @ValidateNested()
  @Type(() => Object, {
    discriminator: {
      property: 'kind',
      subTypes: [
        { name: 'root', value: S3Root },
        { name: 'other', value: Other },
      ],
    },
  })
  u?: object;
}
describe('DTO $defs', () => {
  it('S1: a deep bogus field in a branch on a plain self-cycle is refused, a good value passes', () => {
    const { validate, problems } = derive(S1Root);
    expect(problems).toEqual([]);
    expect(ok(validate({ item: { kind: 'chain', n: 1, next: { n: 2, next: { n: 3 } } } }))).toBe(true);
    expect(ok(validate({ item: { kind: 'chain', n: 1, next: { n: 2, next: { n: 'x' } } } }))).toBe(false);
    expect(ok(validate({ item: { kind: 'chain', n: 1, next: { n: 2, bogus: 1 } } }))).toBe(false);
    expect(ok(validate({ item: { kind: 'other', s: 'a' } }))).toBe(true);
  });

  it('S3: a root held plainly and as a branch: deep values are validated', () => {
    const { validate, problems } = derive(S3Root);
    expect(problems).toEqual([]);
    expect(ok(validate({ n: 1, child: { back: { n: 2 }, u: { kind: 'root', n: 3, child: { u: { kind: 'root', n: 4 } } } } }))).toBe(true);
    expect(ok(validate({ n: 1, child: { u: { kind: 'root', n: 3, child: { u: { kind: 'root', n: 'x' } } } } }))).toBe(false);
    expect(ok(validate({ n: 1, child: { u: { kind: 'root', n: 3, bogus: 1 } } }))).toBe(false);
    expect(ok(validate({ n: 1, child: { back: { n: 2, bogus: true } } }))).toBe(false);
  });
});
