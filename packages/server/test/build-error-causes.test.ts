import 'reflect-metadata';
import * as core from '@toolwright/core';
import { BuildError, Param, Resource, Tool, type Class } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import * as typedi from 'typedi';
import { Inject, Service } from 'typedi';
import { compileWith } from '../../core/test/fixtures/compileWith';

/**
 * Build errors that name the cause and the class it is in (first-hour probe, M3 and M7):
 * decorator metadata off for the whole build is one problem, first, not a missing decorator
 * per class; a service typedi does not know is named with the class that injects it; and a
 * tool name two classes inherit from one method says so, with fixes that can be applied.
 */

const silent = { debug() {}, info() {}, warn() {}, error() {} };

async function buildErrorOf(tools: unknown[], middleware?: unknown[]): Promise<BuildError> {
  const error = await createApp({ name: 'causes', version: '1.0.0', tools: tools as Class[], middleware: middleware as never, logger: silent }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(BuildError.is(error)).toBe(true);
  return error as BuildError;
}

/** What `toolwright new` generates (src/greeting.service.ts and src/greeting.tools.ts), in one module. */
const greeting = (serviceDecorator: string, toolsDecorator: string) => `
import { Param, Tool } from '@toolwright/core';
import { Service } from 'typedi';

${serviceDecorator}
export class GreetingService {
  greet(name: string, language: string): string { return language + ': Hello, ' + name + '!'; }
}

${toolsDecorator}
export class GreetingTools {
  constructor(private readonly greetings: GreetingService) {}

  @Tool({ description: 'Greet a person by name.' })
  greet(
    @Param('name', { description: "The person's name", minLength: 1 }) name: string,
    @Param('language', { enum: ['en', 'fr', 'ja'], default: 'en' }) language: string,
  ): string {
    return this.greetings.greet(name, language);
  }
}
`;
const modules = { '@toolwright/core': core, typedi, 'reflect-metadata': {} };
const COMPILE_FIX =
  'set "emitDecoratorMetadata": true (with "experimentalDecorators": true) in the compilerOptions of your tsconfig.json, and build with tsc, ts-jest or swc (decoratorMetadata: true); do not run the source with tsx, esbuild, vitest or Bun, which drop decorator metadata.';

describe('M3: decorator metadata off for the whole build', () => {
  it('leads with the compiler setting, once, for the generated project run without metadata (as tsx or esbuild run it)', async () => {
    const { GreetingTools } = compileWith(greeting('@Service()', '@Service()'), { experimentalDecorators: true, emitDecoratorMetadata: false }, modules);
    const error = await buildErrorOf([GreetingTools]);
    expect(error.message).toBe(
      [
        'Toolwright cannot build this app (1 problem):',
        '  1. GreetingTools: decorator metadata is off in this build: there are no constructor types (design:paramtypes) for GreetingTools, so the container cannot tell what to inject and every call would fail, and no parameter types for GreetingTools.greet param #0 \'name\', so its type cannot be known. GreetingTools has a class decorator, so TypeScript would have emitted its constructor types had "emitDecoratorMetadata" been on: the cause is the compiler setting, not a missing decorator',
        `     Fix: ${COMPILE_FIX}`,
      ].join('\n'),
    );
  });

  it('names every class and parameter in that one problem, middleware included, and tells an undecorated class to get a decorator too', async () => {
    const source = `
import { Param, Tool } from '@toolwright/core';
import { Service } from 'typedi';
@Service() export class Clock { now() { return 0; } }
@Service() export class Audit {
  constructor(private readonly clock: Clock) {}
  use(_call: unknown, next: () => Promise<unknown>) { return next(); }
}
@Service() export class TimeTools {
  constructor(private readonly clock: Clock) {}
  @Tool({ description: 'd' }) now(@Param('zone') zone: string) { return zone + this.clock.now(); }
}
export class DateTools {
  constructor(private readonly clock: Clock) {}
  @Tool({ description: 'd' }) today(@Param('zone') zone: string) { return zone + this.clock.now(); }
}
`;
    const { TimeTools, DateTools, Audit } = compileWith(source, { experimentalDecorators: true, emitDecoratorMetadata: false }, modules);
    const { problems } = await buildErrorOf([TimeTools, DateTools], [Audit]);
    expect(problems).toEqual([
      {
        where: 'TimeTools, DateTools, Audit (middleware)',
        what: "decorator metadata is off in this build: there are no constructor types (design:paramtypes) for TimeTools, DateTools and Audit (middleware), so the container cannot tell what to inject and every call would fail, and no parameter types for TimeTools.now param #0 'zone' and DateTools.today param #0 'zone', so their types cannot be known. TimeTools and Audit have class decorators, so TypeScript would have emitted their constructor types had \"emitDecoratorMetadata\" been on: the cause is the compiler setting, not a missing decorator",
        fix: `${COMPILE_FIX} And if DateTools has no class decorator, give it one (@Service() (typedi)): TypeScript emits constructor types only for a decorated class.`,
      },
    ]);
  });

  it.each([
    ['on: it lacks a class decorator', true, /^give Audit a class decorator \(@Service\(\) \(typedi\)\)/],
    ['off: the compiler setting comes first', false, /^set "emitDecoratorMetadata": true .* And if Audit has no class decorator, give it one \(@Service\(\) \(typedi\)\)/],
  ])('judges a middleware without methods of its own by the tool classes: metadata %s', async (_case, emitDecoratorMetadata, fix) => {
    const source = `
import { Tool, UseMiddleware } from '@toolwright/core';
export class Clock { now() { return 0; } }
export class Audit {
  constructor(private readonly clock: Clock) {}
  use(_call: unknown, next: () => Promise<unknown>) { return next(); }
}
@UseMiddleware(Audit)
export class PingTools {
  @Tool({ description: 'd' }) ping() { return 'pong'; }
}
`;
    const { PingTools } = compileWith(source, { experimentalDecorators: true, emitDecoratorMetadata }, modules);
    const { problems } = await buildErrorOf([PingTools]);
    expect(problems).toEqual([expect.objectContaining({ where: 'Audit (middleware)', fix: expect.stringMatching(fix) })]);
  });

  it('puts the metadata problem first, before the problems of other causes', async () => {
    const { GreetingTools } = compileWith(greeting('@Service()', '@Service()'), { experimentalDecorators: true, emitDecoratorMetadata: false }, modules);
    class Broken {
      @Tool({ name: 'bad name!' }) a() {
        return 1;
      }
    }
    const { problems } = await buildErrorOf([Broken, GreetingTools]);
    expect(problems.map((p) => p.where)).toEqual(['GreetingTools', 'Broken.a']);
    expect(problems[0]!.what).toMatch(/^decorator metadata is off in this build/);
  });

  it('still tells a class without a class decorator to get one when metadata is on', async () => {
    const { GreetingTools } = compileWith(greeting('@Service()', ''), { experimentalDecorators: true, emitDecoratorMetadata: true }, modules);
    const { problems } = await buildErrorOf([GreetingTools]);
    expect(problems).toEqual([
      {
        where: 'GreetingTools',
        what: 'its constructor takes 1 parameter, but no constructor types were emitted for this tool class (design:paramtypes), so the container cannot tell what to inject and every call would fail',
        fix: expect.stringMatching(/^give GreetingTools a class decorator \(@Service\(\) \(typedi\)\): TypeScript emits constructor types only for a decorated class\./),
      },
    ]);
  });
});

describe('M7a: a service the container does not know is named, with the class that injects it', () => {
  it('names the injected class, not the tool class, when the generated GreetingService loses its @Service()', async () => {
    const { GreetingTools } = compileWith(greeting('', '@Service()'), { experimentalDecorators: true, emitDecoratorMetadata: true }, modules);
    const error = await buildErrorOf([GreetingTools]);
    expect(error.message).toBe(
      [
        'Toolwright cannot build this app (1 problem):',
        '  1. GreetingService, injected by GreetingTools (constructor parameter 1): is not registered with the container, so the container cannot build GreetingTools',
        '     Fix: mark GreetingService @Service() (typedi). If the parameter stands for an interface or a value, give it @Inject(token) and register it with Container.set(token, value).',
      ].join('\n'),
    );
    expect(error.message).not.toContain('MaybeConstructable');
  });

  it('follows the constructor types through known services to the one that is not, skipping @Inject parameters', async () => {
    class Db {}
    // Not registered either, but given by its token: typedi never asks for the class.
    class RepoSettings {}
    @Service()
    class Repo {
      constructor(
        @Inject('build-error-causes.settings') readonly settings: RepoSettings,
        readonly db: Db,
      ) {}
    }
    @Service()
    class RepoTools {
      constructor(readonly repo: Repo) {}
      @Tool({ description: 'd' }) list() {
        return [];
      }
    }
    typedi.Container.set('build-error-causes.settings', new RepoSettings());
    const { problems } = await buildErrorOf([RepoTools]);
    expect(problems).toEqual([
      {
        where: 'Db, injected by Repo (constructor parameter 2)',
        what: 'is not registered with the container, so the container cannot build RepoTools (RepoTools -> Repo -> Db)',
        fix: expect.stringMatching(/^mark Db @Service\(\) \(typedi\)\./),
      },
    ]);
  });

  it('keeps the container’s own words when every class is known (a constructor that throws)', async () => {
    @Service()
    class Settings {
      constructor() {
        throw new Error('API_KEY is not set');
      }
    }
    @Service()
    class SettingsTools {
      constructor(readonly settings: Settings) {}
      @Tool({ description: 'd' }) ping() {
        return 'pong';
      }
    }
    const { problems } = await buildErrorOf([SettingsTools]);
    expect(problems).toEqual([expect.objectContaining({ where: 'SettingsTools', what: 'the container cannot build this class: API_KEY is not set' })]);
  });
});

describe('M7b: a tool name two served classes take from one declaration', () => {
  class BaseRepoTools {
    @Tool({ description: 'List the repositories.' }) listRepos() {
      return [];
    }
  }
  class GithubTools extends BaseRepoTools {}
  class GitlabTools extends BaseRepoTools {}

  it('says both inherit the method, and gives fixes that do not touch the base class', async () => {
    const error = await buildErrorOf([GithubTools, GitlabTools]);
    expect(error.message).toBe(
      [
        'Toolwright cannot build this app (1 problem):',
        "  1. GitlabTools.listRepos: its tool name 'list_repos' is already used by GithubTools.listRepos: both inherit BaseRepoTools.listRepos",
        "     Fix: list only one of GithubTools and GitlabTools in `tools`, or override listRepos in GitlabTools and give the override @Tool({ name: 'other_name' }).",
      ].join('\n'),
    );
  });

  it.each([
    ['base first', [BaseRepoTools, GithubTools], 'GithubTools.listRepos', 'BaseRepoTools.listRepos'],
    ['subclass first', [GithubTools, BaseRepoTools], 'BaseRepoTools.listRepos', 'GithubTools.listRepos'],
  ])('tells to remove the base class from tools when it is served with its subclass (%s)', async (_order, tools, where, previous) => {
    const { problems } = await buildErrorOf(tools);
    expect(problems).toEqual([
      {
        where,
        what: `its tool name 'list_repos' is already used by ${previous}: both are BaseRepoTools.listRepos, which GithubTools inherits`,
        fix: "remove BaseRepoTools from `tools`: it serves the same tools as its subclass GithubTools. To serve both, override listRepos in GithubTools and give the override @Tool({ name: 'other_name' }).",
      },
    ]);
  });

  it('names the declaring class when the two served classes only inherit it, one from the other', async () => {
    class SelfHostedGitlabTools extends GitlabTools {}
    const { problems } = await buildErrorOf([GitlabTools, SelfHostedGitlabTools]);
    expect(problems).toEqual([
      expect.objectContaining({
        what: "its tool name 'list_repos' is already used by GitlabTools.listRepos: both inherit BaseRepoTools.listRepos, and SelfHostedGitlabTools extends GitlabTools",
        fix: expect.stringMatching(/^remove GitlabTools from `tools`: it serves the same tools as its subclass SelfHostedGitlabTools\./),
      }),
    ]);
  });

  it('builds once a subclass overrides the method under another name, as the fix says', async () => {
    class RenamedGitlabTools extends BaseRepoTools {
      @Tool({ name: 'gitlab_list_repos', description: 'List the GitLab repositories.' }) override listRepos() {
        return super.listRepos();
      }
    }
    const app = await createApp({ name: 'causes', version: '1.0.0', tools: [GithubTools, RenamedGitlabTools], logger: silent });
    await app.stop();
  });

  it('keeps the rename fix for two different methods that take one name', async () => {
    class One {
      @Tool({ name: 'same' }) a() {
        return 1;
      }
    }
    class Two {
      @Tool({ name: 'same' }) b() {
        return 2;
      }
    }
    const { problems } = await buildErrorOf([One, Two]);
    expect(problems).toEqual([{ where: 'Two.b', what: "its tool name 'same' is already used by One.a", fix: "give one of them another name: @Tool({ name: 'other_name' })." }]);
  });

  it('says the same of a resource two subclasses inherit', async () => {
    class BaseDocs {
      @Resource('docs://readme', { description: 'd' }) readme() {
        return 'read me';
      }
    }
    class EnDocs extends BaseDocs {
      @Tool({ description: 'd' }) en(@Param('q') q: string) {
        return q;
      }
    }
    class FrDocs extends BaseDocs {
      @Tool({ description: 'd' }) fr(@Param('q') q: string) {
        return q;
      }
    }
    const { problems } = await buildErrorOf([EnDocs, FrDocs]);
    expect(problems).toEqual([
      {
        where: 'FrDocs.readme',
        what: "its URI 'docs://readme' is already used by EnDocs.readme: both inherit BaseDocs.readme",
        fix: "list only one of EnDocs and FrDocs in `tools`, or override readme in FrDocs and give the override another URI: @Resource('other://uri').",
      },
    ]);
  });
});
