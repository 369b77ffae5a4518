import { jsonProblem, MAX_JSON_DEPTH } from '../src/invoke/jsonProblem';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('jsonProblem', () => {
  it('names what JSON.stringify would write as {} though it holds data, with the fix', () => {
    class Secretive {
      readonly #value = 1;
      get value() {
        return this.#value;
      }
    }
    expect(jsonProblem({ totals: new Map([[1, 2]]) }, 'result')).toBe('result.totals is a Map, which JSON writes as {}: return Object.fromEntries(map), or [...map] for its entries.');
    expect(jsonProblem([new Set([1])], 'result')).toBe('result[0] is a Set, which JSON writes as {}: return [...set].');
    expect(jsonProblem({ rows: Promise.resolve(1) }, 'result')).toBe('result.rows is a Promise, which JSON writes as {}: await it before returning.');
    expect(jsonProblem(new RangeError('too far'), 'result')).toBe('result is an Error (RangeError: too far), which JSON writes as {}: throw it to fail the call, or return its message.');
    expect(jsonProblem({ s: new Secretive() }, 'data')).toMatch(/^data\.s is an instance of Secretive with no enumerable fields, which JSON writes as \{\}/);
    // A Map with a field of its own is written with that field: not all is lost, and not refused.
    expect(jsonProblem(Object.assign(new Map(), { size2: 1 }), 'result')).toBeUndefined();
  });

  it('passes what JSON.stringify can write, dropping what it drops', () => {
    const shared = { x: 1 };
    for (const value of [
      null,
      1,
      'text',
      true,
      [1, [2, [3]]],
      { a: { b: [shared, shared] }, f: () => 1, u: undefined, s: Symbol('s') },
      new Date(0),
      Buffer.from('hi'),
      { empty: {}, bare: Object.create(null) as object, list: [] },
      nested(MAX_JSON_DEPTH - 1),
    ]) {
      expect(() => JSON.stringify(value)).not.toThrow();
      expect(jsonProblem(value, 'result')).toBeUndefined();
    }
  });

  it('names the BigInt it finds, through arrays, objects and toJSON', () => {
    expect(jsonProblem({ structuredContent: { rows: [{ id: 1 }, { id: 2n }] } }, 'result')).toBe(
      'result.structuredContent.rows[1].id is a BigInt, which JSON cannot carry: return it as a string or a number.',
    );
    expect(jsonProblem({ v: { toJSON: () => 5n } }, 'result')).toMatch(/^result\.v is a BigInt/);
  });

  it('names a cycle where it closes', () => {
    const loop: Record<string, unknown> = { list: [] };
    (loop.list as unknown[]).push({ back: loop });
    expect(jsonProblem({ loop }, 'result')).toBe('result.loop.list[0].back refers back to an object that contains it: JSON cannot carry a cycle; return a copy without it.');
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels, with a shortened path, and walks any depth without overflowing`, () => {
    expect(jsonProblem(nested(MAX_JSON_DEPTH + 1), 'result')).toBe(`result.a.a.a.a….a.a.a.a.a nests deeper than ${MAX_JSON_DEPTH} levels: flatten it, or send it as text.`);
    expect(jsonProblem(nested(200_000), 'result')).toMatch(/nests deeper than/);
    expect(jsonProblem([[[[[[[[[[[[[[1n]]]]]]]]]]]]]], 'r')).toBe('r[0][0][0][0]…[0][0][0][0][0] is a BigInt, which JSON cannot carry: return it as a string or a number.');
  });

  it('reports a toJSON or a getter that throws', () => {
    expect(
      jsonProblem(
        {
          a: {
            toJSON: () => {
              throw new Error('no');
            },
          },
        },
        'result',
      ),
    ).toBe('reading result.a threw (no): return plain data.');
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get: () => {
        throw new Error('denied');
      },
    });
    expect(jsonProblem({ g: getter }, 'result')).toBe('reading result.g threw (denied): return plain data.');
  });
});
