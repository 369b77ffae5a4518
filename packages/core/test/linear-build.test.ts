import { buildRegistry, Param, RequireScopes, Tool } from '@toolwright/core';

/** Declares `n` tools spread over classes of `perClass` tools each, as tsc emits the decorators. */
function declareTools(n: number, perClass: number): Function[] {
  const classes: Function[] = [];
  for (let start = 0; start < n; start += perClass) {
    const cls = class {};
    const proto = cls.prototype as Record<string, unknown>;
    for (let i = start; i < Math.min(n, start + perClass); i++) {
      const method = `tool${i}`;
      proto[method] = (city: string) => city;
      Reflect.defineMetadata('design:paramtypes', [String], proto, method);
      Param('city')(proto, method, 0);
      RequireScopes('read')(proto, method, Object.getOwnPropertyDescriptor(proto, method)!);
      Tool()(proto, method, Object.getOwnPropertyDescriptor(proto, method)!);
    }
    classes.push(cls);
  }
  return classes;
}

function timeBuild(n: number, perClass: number): number {
  const start = process.hrtime.bigint();
  const registry = buildRegistry({ tools: declareTools(n, perClass) as never });
  expect(registry.tools).toHaveLength(n);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

describe('issue 13: the build is linear in the members of a class', () => {
  it('builds 3,000 tools in one class about as fast as spread over 300 classes', () => {
    timeBuild(300, 10); // warm up the JIT
    const spread = timeBuild(3000, 10);
    const oneClass = timeBuild(3000, 3000);
    // Quadratic reads made one class ~30x slower than the spread at this size.
    expect(oneClass).toBeLessThan(4 * spread + 200);
  });

  it('keeps per-method parameters and access rules apart in a large class', () => {
    const [cls] = declareTools(500, 500);
    const registry = buildRegistry({ tools: [cls] as never });
    const tool = registry.tool('tool499')!;
    expect(tool.descriptor.inputSchema).toMatchObject({ properties: { city: { type: 'string' } }, required: ['city'] });
    expect(tool.access).toEqual({ public: false, scopes: ['read'], roles: [] });
  });
});
