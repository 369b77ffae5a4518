import { buildRegistry, Public, RequireRoles, RequireScopes, Tool } from '@toolwright/core';
import { canAccess } from '../src/auth/canAccess';

@RequireScopes('a:read')
@RequireRoles('staff')
class Base {
  @Tool({ description: 'x' }) inherited() {}
}

class Child extends Base {
  @RequireScopes('a:write') @Tool({ description: 'x' }) write() {}
  @RequireRoles('admin') @Tool({ description: 'x' }) admin() {}
  @Public() @Tool({ description: 'x' }) open() {}
}

class Plain {
  @Tool({ description: 'x' }) free() {}
}

describe('authorization decorators: what the build resolves', () => {
  const registry = buildRegistry({ tools: [Child, Plain] });
  const access = (name: string) => registry.tool(name)?.access;

  it('combines class and method rules: scopes add up, method roles replace class roles, @Public clears both', () => {
    expect(access('inherited')).toEqual({ public: false, scopes: ['a:read'], roles: ['staff'] });
    expect(access('write')).toEqual({ public: false, scopes: ['a:read', 'a:write'], roles: ['staff'] });
    expect(access('admin')).toEqual({ public: false, scopes: ['a:read'], roles: ['admin'] });
    expect(access('open')).toEqual({ public: true, scopes: [], roles: [] });
    expect(access('free')).toBeUndefined();
  });

  it('checks callers against them', () => {
    const caller = (scopes: string[], roles: string[] = []) => ({ token: 't', clientId: 'c', scopes, extra: { roles } });
    expect(canAccess(access('write'), caller(['a:read', 'a:write'], ['staff']))).toBe(true);
    expect(canAccess(access('write'), caller(['a:read'], ['staff']))).toBe(false);
    expect(canAccess(access('admin'), caller(['a:read'], ['staff']))).toBe(false);
    expect(canAccess(access('open'), undefined)).toBe(true);
    expect(canAccess(access('free'), undefined)).toBe(true);
    expect(canAccess(access('inherited'), undefined)).toBe(false);
  });

  it('reports contradictory or empty rules in the build error, with the fix', () => {
    class Bad {
      @Public() @RequireScopes('x') @Tool({ description: 'x' }) both() {}
      @RequireScopes() @Tool({ description: 'x' }) empty() {}
      @RequireRoles('has space') @Tool({ description: 'x' }) spaced() {}
    }
    expect(() => buildRegistry({ tools: [Bad] })).toThrow(/Bad\.both[\s\S]*@Public\(\) and also requires[\s\S]*Bad\.empty[\s\S]*needs at least one non-empty name[\s\S]*Bad\.spaced/);
  });
});
