import { compileParamsBinder } from '../src/invoke/compileParamsBinder';

describe('issue 13: one @Param binder for tools, resources and prompts', () => {
  const schema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, n: { type: 'integer' } }, additionalProperties: false } as const;
  const params = [
    { name: 'tags', index: 0, shape: { kind: 'plain' as const }, fallback: ['a'] },
    { name: 'n', index: 1, shape: { kind: 'plain' as const }, fallback: 2 },
  ];

  it('gives every call its own copy of an object default (resources and prompts shared it before)', () => {
    const bind = compileParamsBinder({ schema: schema as never, params, ctxIndex: 2, arity: 3, coerce: true });
    const first = bind({}, undefined);
    if (first instanceof Promise || !first.ok) throw new Error('expected a synchronous success');
    (first.value[0] as string[]).push('changed by the method');
    const second = bind({}, undefined);
    expect(second).toEqual({ ok: true, value: [['a'], 2, undefined], args: { tags: ['a'], n: 2 } });
    expect(params[0].fallback).toEqual(['a']);
  });

  it('converts strings when coercing (URI variables and prompt arguments), and reports field issues', () => {
    const bind = compileParamsBinder({ schema: schema as never, params, ctxIndex: undefined, arity: 2, coerce: true });
    expect(bind({ n: '5' }, undefined)).toEqual({ ok: true, value: [['a'], 5], args: { n: 5, tags: ['a'] } });
    expect(bind({ n: 'x' }, undefined)).toEqual({ ok: false, issues: [{ path: 'n', message: 'must be an integer (got string "x")' }] });
  });
});
