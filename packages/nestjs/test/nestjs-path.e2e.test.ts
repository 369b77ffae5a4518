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

function appModule(path = 'mcp'): Type {
  class PathAppModule {}
  Module({
    imports: [ToolwrightModule.forRoot({ name: 'path', version: '1.0.0', tools: [EchoTools], http: { path, requestLogLevel: 'silent' } })],
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

/**
 * A path that requests spell otherwise than it is written (percent-encoded, dot segments) is
 * guarded as the endpoint serves it: on Express the guards matched the path as written while the
 * endpoint served the encoded one, so every request passed no guard.
 */
describe.each(['express', 'fastify'] as const)('Nest on %s, a path requests spell otherwise', (platform) => {
  it.each([
    ['/outils métier', '/outils%20m%C3%A9tier'],
    ['/api/../mcp', '/mcp'],
  ])('%s: the global guards run on %s', async (path, sent) => {
    const nest = platform === 'fastify' ? await NestFactory.create(appModule(path), new FastifyAdapter(), { logger: false }) : await NestFactory.create(appModule(path), { logger: false });
    try {
      await nest.listen(0, '127.0.0.1');
      const response = await fetch(`${await nest.getUrl()}${sent}`.replace('[::1]', '127.0.0.1'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      // Fastify routes the path as written: '/api/../mcp' is no route of a request to /mcp (404), never served unguarded.
      expect(response.status).toBe(platform === 'fastify' && path.includes('..') ? 404 : 401);
      await response.text();
    } finally {
      await nest.close().catch(() => undefined);
    }
  });
});
