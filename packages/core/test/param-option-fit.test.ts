import { BuildError, buildRegistry, Param, Prompt, Resource, Tool, type Class } from '@toolwright/core';
import { IsString } from 'class-validator';

/** `@Param` options that do not apply to the parameter's type are build problems, not silently dropped keywords. */

function problemsOf(tools: Class[]): { where: string; what: string; fix: string }[] {
  try {
    buildRegistry({ tools: tools as never });
  } catch (error) {
    expect(error).toBeInstanceOf(BuildError);
    return [...(error as BuildError).problems];
  }
  throw new Error('expected a BuildError');
}

function inputSchemaOf(cls: Class, tool = 'run'): Record<string, unknown> {
  const registry = buildRegistry({ tools: [cls] as never });
  return registry.toolList.tools.find((t) => t.name === tool)!.inputSchema as Record<string, unknown>;
}

class Address {
  @IsString() city!: string;
}

enum Level {
  Low,
  High,
}

describe('@Param options that do not fit the type', () => {
  it('refuses integer on a string and minLength on a number, naming the option, the type and the fix', () => {
    class Odd {
      @Tool() run(@Param('name', { integer: true }) name: string, @Param('n', { minLength: 3 }) n: number) {
        return `${name}${n}`;
      }
    }
    expect(problemsOf([Odd])).toEqual([
      {
        where: "Odd.run param #0 'name'",
        what: 'its option integer: true applies only to numbers, but the parameter is a string, so it would have no effect',
        fix: "remove integer, or change the parameter's type to number.",
      },
      {
        where: "Odd.run param #1 'n'",
        what: 'its option minLength: 3 applies only to strings, but the parameter is a number, so it would have no effect',
        fix: "remove minLength, or change the parameter's type to string.",
      },
    ]);
  });

  it.each([
    ['minimum', { minimum: 1 }, 'minimum: 1 applies only to numbers'],
    ['maximum', { maximum: 1 }, 'maximum: 1 applies only to numbers'],
    ['exclusiveMinimum', { exclusiveMinimum: 0 }, 'exclusiveMinimum: 0 applies only to numbers'],
    ['exclusiveMaximum', { exclusiveMaximum: 0 }, 'exclusiveMaximum: 0 applies only to numbers'],
    ['multipleOf', { multipleOf: 2 }, 'multipleOf: 2 applies only to numbers'],
    ['minItems', { minItems: 1 }, 'minItems: 1 applies only to arrays'],
    ['maxItems', { maxItems: 1 }, 'maxItems: 1 applies only to arrays'],
    ['uniqueItems', { uniqueItems: true }, 'uniqueItems: true applies only to arrays'],
  ])('refuses %s on a string', (_name, options, what) => {
    class Odd {
      @Tool() run(@Param('s', options) s: string) {
        return s;
      }
    }
    expect(problemsOf([Odd])).toEqual([
      { where: "Odd.run param #0 's'", what: `its option ${what}, but the parameter is a string, so it would have no effect`, fix: expect.stringMatching(/^remove /) },
    ]);
  });

  it.each([
    ['maxLength', { maxLength: 3 }, 'maxLength: 3'],
    ['pattern (a RegExp)', { pattern: /^\d+$/ }, 'pattern: /^\\d+$/'],
    ['pattern (a string)', { pattern: '^\\d+$' }, "pattern: '^\\d+$'"],
    ['format', { format: 'email' }, "format: 'email'"],
  ])('refuses %s on a boolean', (_name, options, shown) => {
    class Odd {
      @Tool() run(@Param('b', options) b: boolean) {
        return b;
      }
    }
    expect(problemsOf([Odd])).toEqual([
      { where: "Odd.run param #0 'b'", what: `its option ${shown} applies only to strings, but the parameter is a boolean, so it would have no effect`, fix: expect.stringContaining('remove ') },
    ]);
  });

  it('applies number and string options to the elements of an array, and array options to the array', () => {
    class Fine {
      @Tool() run(
        @Param('tags', { type: () => [String], minLength: 1, maxLength: 20, pattern: '^[a-z]+$', minItems: 1, maxItems: 5, uniqueItems: true }) tags: string[],
        @Param('ids', { type: () => [Number], integer: true, minimum: 1 }) ids: number[],
      ) {
        return [tags, ids];
      }
    }
    expect(inputSchemaOf(Fine).properties).toEqual({
      tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 20, pattern: '^[a-z]+$' }, minItems: 1, maxItems: 5, uniqueItems: true },
      ids: { type: 'array', items: { type: 'integer', minimum: 1 } },
    });
  });

  it('refuses a string option on an array of numbers, pointing minLength to minItems', () => {
    class Odd {
      @Tool() run(@Param('ids', { type: () => [Number], minLength: 1 }) ids: number[]) {
        return ids;
      }
    }
    expect(problemsOf([Odd])).toEqual([
      {
        where: "Odd.run param #0 'ids'",
        what: 'its option minLength: 1 applies only to strings (in an array, to each element), but the parameter is an array of numbers, so it would have no effect',
        fix: "to bound how many elements the array has, use minItems instead; otherwise remove minLength, or make the elements strings: @Param('name', { type: () => [String] }).",
      },
    ]);
  });

  it('refuses an array option on a scalar with the type thunk that makes it an array', () => {
    class Odd {
      @Tool() run(@Param('n', { minItems: 1 }) n: number, @Param('a', { maxItems: 2 }) a: Address) {
        return [n, a];
      }
    }
    expect(problemsOf([Odd]).map((p) => p.fix)).toEqual([
      "remove minItems, or make the parameter an array: @Param('name', { type: () => [Number] }).",
      "remove maxItems, or make the parameter an array: @Param('name', { type: () => [Address] }).",
    ]);
  });

  it('judges by the type the schema gets: a type thunk, an enum, a Date', () => {
    class Fine {
      @Tool() run(
        @Param('a', { type: () => Number, integer: true, minimum: 0 }) a: unknown,
        @Param('b', { enum: ['x', 'yy'], minLength: 1 }) b: string,
        @Param('c', { enum: Level, integer: true, maximum: 1 }) c: Level,
        @Param('d', { format: 'date' }) d: Date,
        @Param('e', { nullable: true, type: () => String, maxLength: 3 }) e: string | null,
      ) {
        return [a, b, c, d, e];
      }
    }
    expect(inputSchemaOf(Fine).properties).toEqual({
      a: { type: 'integer', minimum: 0 },
      b: { type: 'string', enum: ['x', 'yy'], minLength: 1 },
      c: { type: 'integer', enum: [0, 1], maximum: 1 },
      d: { type: 'string', format: 'date' },
      e: { type: ['string', 'null'], maxLength: 3 },
    });
  });

  it('refuses a type thunk that gives another type than the options fit', () => {
    class Odd {
      @Tool() run(@Param('a', { type: () => String, integer: true }) a: number, @Param('b', { enum: ['x'], minimum: 1 }) b: string) {
        return [a, b];
      }
    }
    expect(problemsOf([Odd]).map((p) => p.what)).toEqual([
      'its option integer: true applies only to numbers, but the parameter is a string, so it would have no effect',
      'its option minimum: 1 applies only to numbers, but the parameter is an enum of strings, so it would have no effect',
    ]);
  });

  it('refuses number options on a Date, and a format new Date() cannot read', () => {
    class Odd {
      @Tool() run(@Param('d', { minimum: 0 }) d: Date, @Param('e', { format: 'email' }) e: Date) {
        return [d, e];
      }
    }
    expect(problemsOf([Odd])).toEqual([
      {
        where: "Odd.run param #0 'd'",
        what: 'its option minimum: 0 applies only to numbers, but the parameter is a Date, so it would have no effect',
        fix: "remove minimum, or change the parameter's type to number.",
      },
      {
        where: "Odd.run param #1 'e'",
        what: "its option format: 'email' does not fit a Date parameter, which arrives as a string that new Date() reads",
        fix: "use format: 'date-time' (the default) or format: 'date', or make the parameter a string.",
      },
    ]);
  });

  it('refuses scalar options on a DTO parameter and says where its rules go', () => {
    class Odd {
      @Tool() run(@Param('a', { minLength: 1 }) a: Address) {
        return a;
      }
    }
    expect(problemsOf([Odd])).toEqual([
      {
        where: "Odd.run param #0 'a'",
        what: 'its option minLength: 1 applies only to strings, but the parameter is an object (Address), so it would have no effect',
        fix: 'remove minLength: the rules of a DTO class go on its properties, as class-validator decorators.',
      },
    ]);
  });

  it('refuses options that schema replaces', () => {
    class Odd {
      @Tool() run(@Param('h', { schema: { type: 'string' }, minLength: 1, nullable: true, integer: false }) h: string) {
        return h;
      }
    }
    expect(problemsOf([Odd])).toEqual([
      {
        where: "Odd.run param #0 'h'",
        what: 'its option nullable: true has no effect beside schema, which is used as given',
        fix: "write it into the schema ('null' among its types, e.g. type: ['string', 'null']) and remove nullable, or remove schema to have the schema derived.",
      },
      {
        where: "Odd.run param #0 'h'",
        what: 'its option minLength: 1 has no effect beside schema, which is used as given',
        fix: 'write it into the schema (minLength: 1) and remove minLength, or remove schema to have the schema derived.',
      },
    ]);
  });

  it('takes false for integer and uniqueItems as no request', () => {
    class Fine {
      @Tool() run(@Param('s', { integer: false, uniqueItems: false }) s: string) {
        return s;
      }
    }
    expect(inputSchemaOf(Fine).properties).toEqual({ s: { type: 'string' } });
  });

  it('checks prompt arguments and resource template variables the same way', () => {
    class Odd {
      @Prompt() ask(@Param('topic', { minimum: 1 }) topic: string) {
        return topic;
      }
      @Resource('notes://{id}') note(@Param('id', { maxLength: 3 }) id: number) {
        return String(id);
      }
    }
    expect(problemsOf([Odd]).map((p) => [p.where, p.what])).toEqual(
      expect.arrayContaining([
        ["Odd.ask param #0 'topic'", 'its option minimum: 1 applies only to numbers, but the parameter is a string, so it would have no effect'],
        ["Odd.note param #0 'id'", 'its option maxLength: 3 applies only to strings, but the parameter is a number, so it would have no effect'],
      ]),
    );
  });

  it('reports every mismatch of every parameter in one BuildError', () => {
    class Odd {
      @Tool() a(@Param('x', { integer: true, pattern: 'a' }) x: boolean) {
        return x;
      }
      @Tool() b(@Param('y', { minItems: 1 }) y: string) {
        return y;
      }
    }
    expect(problemsOf([Odd]).map((p) => p.what.split(' applies')[0])).toEqual(['its option integer: true', "its option pattern: 'a'", 'its option minItems: 1']);
  });
});

describe('the message of the guide (docs/guide/tools.md)', () => {
  it('reads as the guide shows it', () => {
    class Tasks {
      @Tool() find(@Param('name', { integer: true }) name: string) {
        return name;
      }
    }
    let message = '';
    try {
      buildRegistry({ tools: [Tasks] as never });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      [
        'Toolwright cannot build this app (1 problem):',
        "  1. Tasks.find param #0 'name': its option integer: true applies only to numbers, but the parameter is a string, so it would have no effect",
        "     Fix: remove integer, or change the parameter's type to number.",
      ].join('\n'),
    );
  });
});
