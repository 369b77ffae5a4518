import { buildRegistry, Param, RequireScopes, Tool, type Class } from '@toolwright/core';

/** Declares `n` tools spread over classes of `perClass` tools each, as tsc emits the decorators. */
function declareTools(n: number, perClass: number): Class[] {
  const classes: Class[] = [];
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

// That one large class builds about as fast as the same tools spread over many classes is a
// timing: bench/scale.js measures it (`npm run bench:scale`, BENCH_ASSERT=1 fails on a miss).
describe('issue 13: a large class, built from one index per class', () => {
  it('keeps per-method parameters and access rules apart in a large class', () => {
    const [cls] = declareTools(500, 500);
    const registry = buildRegistry({ tools: [cls] as never });
    const tool = registry.tool('tool499')!;
    expect(tool.descriptor.inputSchema).toMatchObject({ properties: { city: { type: 'string' } }, required: ['city'] });
    expect(tool.access).toEqual({ public: false, scopes: ['read'], roles: [] });
  });
});
