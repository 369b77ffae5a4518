import { BuildError, CallInterrupt, ConfigError, ResourceNotFoundError, ToolError, ToolwrightError } from '@toolwright/core';

describe('issue 13: Toolwright errors carry a kind, and each `is` matches its own kind only', () => {
  const build = new BuildError([{ where: 'A.b', what: 'is wrong', fix: 'fix it.' }]);
  const tool = new ToolError('City not found');
  const notFound = new ResourceNotFoundError('users://9');
  const config = new ConfigError('--port must be a number');

  it('gives each error its kind and name', () => {
    expect([build, tool, notFound, config].map((e) => [e.name, e.kind])).toEqual([
      ['BuildError', 'build'],
      ['ToolError', 'tool'],
      ['ResourceNotFoundError', 'resource_not_found'],
      ['ConfigError', 'config'],
    ]);
    expect(new ToolwrightError('x').kind).toBe('internal');
    expect(new ToolwrightError('x', { kind: 'internal' }).kind).toBe('internal');
  });

  it.each([
    ['build', 'BuildError'],
    ['config', 'ConfigError'],
    ['tool', 'ToolError'],
    ['resource_not_found', 'ResourceNotFoundError'],
    ['interrupt', 'CallInterrupt'],
    ['protocol', 'ProtocolError'],
  ])("refuses the kind '%s' on the base class: it belongs to %s (so BuildError.is cannot match a ToolwrightError)", (kind, owner) => {
    const make = () => new ToolwrightError('x', { kind } as never);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(`ToolwrightError: the kind '${kind}' belongs to ${owner}`);
  });

  it('BuildError.is(new ToolwrightError(x, { kind: build })) is false: the error cannot be made', () => {
    let made: unknown;
    try {
      made = new ToolwrightError('x', { kind: 'build' } as never);
    } catch {
      made = undefined;
    }
    expect(BuildError.is(made)).toBe(false);
  });

  it('refuses another kind on a class that has its own, and an unknown kind', () => {
    expect(() => new ConfigError('x', { kind: 'internal' })).toThrow("ConfigError always has kind 'config'; drop the kind option ('internal' was given).");
    expect(() => new ToolwrightError('x', { kind: 'oops' } as never)).toThrow(/unknown kind "oops"; the kinds are 'build', 'config', .*'internal'/);
    class AppError extends ToolwrightError {}
    expect(new AppError('x').kind).toBe('internal');
  });

  it('names the right owner for every kind a class owns', () => {
    const classes = [BuildError, ConfigError, ToolError, ResourceNotFoundError, CallInterrupt]; // and ProtocolError: server-error-kinds.test.ts
    for (const cls of classes) expect(() => new ToolwrightError('x', { kind: cls.KIND } as never)).toThrow(`belongs to ${cls.name}`);
  });

  it('BuildError.is does not match other Toolwright errors (it used to match all of them)', () => {
    expect(BuildError.is(build)).toBe(true);
    expect([tool, notFound, config, new Error('plain')].map((e) => BuildError.is(e))).toEqual([false, false, false, false]);
    expect(ToolError.is(build)).toBe(false);
    expect(ResourceNotFoundError.is(tool)).toBe(false);
  });

  it('ToolwrightError.is matches every kind, and errors from another copy of the package by brand and kind', () => {
    expect([build, tool, notFound, config].every((e) => ToolwrightError.is(e))).toBe(true);
    expect(ToolwrightError.is(new Error('plain'))).toBe(false);
    const fromOtherCopy = Object.assign(new Error('x'), { [Symbol.for('toolwright.error')]: true, kind: 'build' });
    expect(BuildError.is(fromOtherCopy)).toBe(true);
    expect(ToolError.is(fromOtherCopy)).toBe(false);
  });

  it('keeps instanceof and the cause', () => {
    const cause = new Error('root');
    const e = new ToolError('failed', { cause });
    expect(e).toBeInstanceOf(ToolwrightError);
    expect(e).toBeInstanceOf(ToolError);
    expect(e.cause).toBe(cause);
  });
});
