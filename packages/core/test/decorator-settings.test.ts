import * as core from '@toolwright/core';
import { BuildError, buildRegistry, ConfigError } from '@toolwright/core';
import * as typedi from 'typedi';
import { compileWith } from './fixtures/compileWith';

/** The modules the compiled snippets import. */
const modules = { '@toolwright/core': core, typedi, 'reflect-metadata': {} };

const inventoryTools = `
import { Tool } from '@toolwright/core';
import { Service } from 'typedi';

@Service()
export class Inventory {
  all() { return ['bolt', 'nut']; }
}

@Service()
export class InventoryTools {
  constructor(private readonly inventory: Inventory) {}

  @Tool({ description: 'Lists the stock.' })
  listStock() { return this.inventory.all(); }
}
`;

function problemsOf(run: () => unknown): readonly core.BuildProblem[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BuildError);
    return (error as BuildError).problems;
  }
  throw new Error('expected a BuildError');
}

describe('decorator settings the build can see (issue 30, items 4 and 5)', () => {
  it('refuses constructor injection compiled without emitDecoratorMetadata, naming the class and the fix', () => {
    // As tsx, vitest or esbuild compile it: the tools take no parameters, so only the constructor can tell.
    const { InventoryTools } = compileWith(inventoryTools, { experimentalDecorators: true, emitDecoratorMetadata: false }, modules);
    const problems = problemsOf(() => buildRegistry({ tools: [InventoryTools as core.Class] }));
    // InventoryTools has @Service(): the compiler setting is the cause, not a missing class decorator.
    expect(problems).toEqual([
      {
        where: 'InventoryTools',
        what: expect.stringMatching(
          /^decorator metadata is off in this build: there are no constructor types \(design:paramtypes\) for InventoryTools, .* InventoryTools has a class decorator, .*not a missing decorator$/,
        ),
        fix: expect.stringMatching(/^set "emitDecoratorMetadata": true .*do not run the source with tsx, esbuild, vitest or Bun/),
      },
    ]);
    expect(problems[0]!.fix).not.toContain('give InventoryTools a class decorator');
  });

  it('builds and runs the same class compiled with emitDecoratorMetadata', async () => {
    const { InventoryTools } = compileWith(inventoryTools, { experimentalDecorators: true, emitDecoratorMetadata: true }, modules);
    const registry = buildRegistry({ tools: [InventoryTools as core.Class] });
    const tool = registry.tool('list_stock')!;
    const instance = typedi.Container.get(InventoryTools as core.Class) as { listStock(): string[] };
    expect(tool).toBeDefined();
    expect(instance.listStock()).toEqual(['bolt', 'nut']);
  });

  it('leaves a constructor without types alone for a container with its own rules', () => {
    class Inventory {
      all() {
        return [];
      }
    }
    class Tools {
      constructor(readonly inventory: Inventory) {}
      @core.Tool({ description: 'x' }) x() {
        return this.inventory.all();
      }
    }
    const registry = buildRegistry({ tools: [Tools], container: { get: (cls) => (cls === Tools ? new Tools(new Inventory()) : new cls()) as never } });
    expect(registry.tools).toHaveLength(1);
  });

  it('checks a @Scoped class whatever the container, unless every parameter is @FromCall', () => {
    class Db {}
    @core.Scoped('request')
    class Scoped {
      constructor(
        readonly db: Db,
        @core.FromCall('context') readonly ctx: unknown,
      ) {}
      @core.Tool({ description: 'x' }) x() {
        return 1;
      }
    }
    @core.Scoped('request')
    class OnlyCall {
      constructor(@core.FromCall('context') readonly ctx: unknown) {}
      @core.Tool({ description: 'y' }) y() {
        return 1;
      }
    }
    Reflect.deleteMetadata('design:paramtypes', Scoped);
    Reflect.deleteMetadata('design:paramtypes', OnlyCall);
    const problems = problemsOf(() => buildRegistry({ tools: [Scoped, OnlyCall], container: { get: (cls) => new cls() } }));
    expect(problems.map((p) => p.where)).toEqual(['Scoped']);
    expect(problems[0].what).toMatch(/constructor takes 2 parameters/);
    expect(problems[0].fix).toMatch(/@Scoped\('request'\)/);
  });

  it('throws at class definition when the decorators are compiled as standard (TC39) decorators', () => {
    let thrown: unknown;
    try {
      compileWith(inventoryTools, { experimentalDecorators: false, emitDecoratorMetadata: false }, modules);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toMatch(/^@Tool\(\) was called as a standard \(TC39\) decorator on method 'listStock'/);
    expect((thrown as Error).message).toContain('"experimentalDecorators": true and "emitDecoratorMetadata": true');
  });

  it.each([
    ['@Resource()', () => core.Resource('x://y')],
    ['@Prompt()', () => core.Prompt()],
    ['@UseMiddleware()', () => core.UseMiddleware()],
    ['@UseGuards()', () => core.UseGuards()],
    ['@RequireRoles()', () => core.RequireRoles('a')],
    ['@RequireScopes()', () => core.RequireScopes('a')],
    ['@RequireClientExtension()', () => core.RequireClientExtension('com.example/x')],
    ['@Public()', () => core.Public()],
    ['@OnStart()', () => core.OnStart()],
    ['@OnShutdown()', () => core.OnShutdown()],
    ["@Scoped('request')", () => core.Scoped('request')],
    ['@Property()', () => core.Property({ description: 'x' })],
  ])('%s refuses a standard decorator context', (name, make) => {
    const decorator = make() as (...args: unknown[]) => unknown;
    expect(() => decorator(function target() {}, { kind: 'method', name: 'm' })).toThrow(`${name} was called as a standard (TC39) decorator`);
  });
});
