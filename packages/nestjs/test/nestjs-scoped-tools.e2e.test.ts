import 'reflect-metadata';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import { NestFactory, REQUEST } from '@nestjs/core';
import { Param, Tool } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';

/**
 * A tool class that injects a request-scoped service (one that injects REQUEST, a common Nest
 * pattern) is request-scoped itself, though it is listed in `tools` as any other provider. The
 * startup error says that, and how to fix it, rather than asking to add the provider it has.
 */
@Injectable({ scope: Scope.REQUEST })
class CurrentUser {
  constructor(@Inject(REQUEST) readonly request: unknown) {}
}

@Injectable()
class ProfileTools {
  constructor(private readonly user: CurrentUser) {}

  @Tool({ description: 'Who am I?' })
  whoAmI(@Param('greeting') greeting: string) {
    return `${greeting} ${typeof this.user}`;
  }
}

it('a tool class Nest builds per request is refused at start, naming the scope and the fix, not a missing provider', async () => {
  @Module({ imports: [ToolwrightModule.forRoot({ name: 'profile', version: '1.0.0', tools: [ProfileTools], providers: [CurrentUser] })] })
  class ProfileModule {}
  const failed = await NestFactory.createApplicationContext(ProfileModule, { logger: false, abortOnError: false }).then(
    async (context) => {
      await context.close();
      return 'started';
    },
    (error: Error) => error.message,
  );
  expect(failed).toMatch(
    /Nest provides ProfileTools per request \(it is request- or transient-scoped, or injects a provider that is, such as one that injects REQUEST\), and tools are built once\. Give ProfileTools and what it injects the default scope/,
  );
  expect(failed).not.toMatch(/Nest has no provider ProfileTools/);
});
