import 'reflect-metadata';
import { Injectable, Module, UnauthorizedException, type CanActivate, type Type } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Param, Tool } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';

/**
 * `http.path` written without its leading slash is refused at start, naming the option and the
 * fix. It used to start: the endpoint served `/mcp` while the app's global guards were matched
 * against `mcp`, so a request to `/mcp` passed no guard at all.
 */
class EchoTools {
  @Tool({ description: 'Echo a value.' })
  echo(@Param('value') value: string) {
    return value;
  }
}

@Injectable()
class RefuseAll implements CanActivate {
  canActivate(): boolean {
    throw new UnauthorizedException('no key');
  }
}

function appModule(): Type {
  class PathAppModule {}
  Module({
    imports: [ToolwrightModule.forRoot({ name: 'path', version: '1.0.0', tools: [EchoTools], http: { path: 'mcp', requestLogLevel: 'silent' } })],
    providers: [{ provide: APP_GUARD, useClass: RefuseAll }],
  })(PathAppModule);
  return PathAppModule;
}

describe.each(['express', 'fastify'] as const)("Nest on %s, http.path 'mcp'", (platform) => {
  it('refuses to start, saying what to write', async () => {
    const nest = platform === 'fastify' ? await NestFactory.create(appModule(), new FastifyAdapter(), { logger: false }) : await NestFactory.create(appModule(), { logger: false });
    try {
      await expect(nest.listen(0, '127.0.0.1')).rejects.toThrow("Toolwright: ToolwrightModule option http.path is \"mcp\", which does not start with '/'. Write http: { path: '/mcp' }.");
    } finally {
      await nest.close().catch(() => undefined);
    }
  });
});
