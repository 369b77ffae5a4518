import 'reflect-metadata';
import { Injectable, Scope, UseGuards, UseInterceptors, type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Param, Tool } from '@toolwright/core';
import type { Observable } from 'rxjs';
import { ERAS, connectEra } from '../../express/test/fixtures/mcpClients';
import { useNestEndpoint } from './fixtures/useNestEndpoint';

/**
 * A request-scoped guard that remembers what it checked, as request-scoped guards may: the
 * first `name` it saw. Shared between calls, it would answer every later caller with the
 * first caller's check.
 */
@Injectable({ scope: Scope.REQUEST })
class OnlyFriendsGuard implements CanActivate {
  private checkedFor?: string;
  canActivate(context: ExecutionContext): boolean {
    this.checkedFor ??= context.switchToRpc().getData<{ name: string }>().name;
    return this.checkedFor !== 'mallory';
  }
}

/** What one call's guard and interceptor share: Nest builds one per request, so Toolwright must build one per call. */
@Injectable({ scope: Scope.REQUEST })
class CallState {
  readonly id = Symbol('call');
}

/** Every CallState a guard or an interceptor was given, in order. */
const seen: { by: 'guard' | 'interceptor'; state: CallState }[] = [];

/** Request-scoped through what it injects. */
@Injectable()
class StampGuard implements CanActivate {
  constructor(private readonly state: CallState) {}
  canActivate(): boolean {
    seen.push({ by: 'guard', state: this.state });
    return true;
  }
}

@Injectable()
class StampInterceptor implements NestInterceptor {
  constructor(private readonly state: CallState) {}
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    seen.push({ by: 'interceptor', state: this.state });
    return next.handle();
  }
}

@Injectable()
class GreetingTools {
  @Tool({ description: 'Greet a friend.' })
  @UseGuards(OnlyFriendsGuard)
  greet(@Param('name') name: string) {
    return `hello ${name}`;
  }

  @Tool({ description: 'Stamp a letter.' })
  @UseGuards(StampGuard)
  @UseInterceptors(StampInterceptor)
  stamp() {
    return 'stamped';
  }
}

/**
 * Nest builds a request-scoped guard (or one that injects a request-scoped provider) for each
 * request. Toolwright builds it for each call: what it holds is never another caller's, and a
 * guard and an interceptor of one call share their request-scoped dependencies.
 */
describe('request-scoped Nest guards and interceptors on tools', () => {
  const served = useNestEndpoint({
    name: 'greetings',
    version: '1.0.0',
    tools: [GreetingTools],
    // A factory provider: Nest does not read the enhancers of what a factory returns, so the tool class stays a singleton with request-scoped guards.
    providers: [CallState, OnlyFriendsGuard, StampGuard, StampInterceptor, { provide: GreetingTools, useFactory: () => new GreetingTools() }],
  });

  it.each(ERAS)("%s: each call gets its own guard: one caller's check never answers another's", async (era) => {
    const client = await connectEra(era, served.url);
    try {
      expect(await client.callTool('greet', { name: 'mallory' })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Forbidden: tool 'greet'/) }] });
      expect(await client.callTool('greet', { name: 'ada' })).toMatchObject({ content: [{ text: 'hello ada' }] });
      expect(await client.callTool('greet', { name: 'mallory' })).toMatchObject({ isError: true });
      expect(await client.callTool('greet', { name: 'grace' })).toMatchObject({ content: [{ text: 'hello grace' }] });
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('%s: a guard and an interceptor of one call share its request-scoped provider; no two calls do', async (era) => {
    const client = await connectEra(era, served.url);
    try {
      seen.length = 0;
      for (let i = 0; i < 2; i++) expect(await client.callTool('stamp', {})).toMatchObject({ content: [{ text: 'stamped' }] });
      expect(seen.map((s) => s.by)).toEqual(['guard', 'interceptor', 'guard', 'interceptor']);
      expect(seen[1]!.state).toBe(seen[0]!.state);
      expect(seen[3]!.state).toBe(seen[2]!.state);
      expect(seen[2]!.state).not.toBe(seen[0]!.state);
    } finally {
      await client.close();
    }
  });
});
