import 'reflect-metadata';
import { Injectable, UseGuards, UseInterceptors, type CallHandler, type CanActivate, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Args, Tool, type ToolLogger } from '@toolwright/core';
import { TOOLWRIGHT_CONTEXT } from '@toolwright/nestjs';
import { Type } from 'class-transformer';
import { IsArray, IsString, ValidateNested } from 'class-validator';
import { inspect } from 'node:util';
import type { Observable } from 'rxjs';
import { ERAS, connectEra } from '../../express/test/fixtures/mcpClients';
import { useNestEndpoint } from './fixtures/useNestEndpoint';

/**
 * A guard written for HTTP routes (admins only, from the `req.user` passport sets), put on a tool
 * class with `@UseGuards()`. A tool call is no HTTP request: had `switchToHttp().getRequest()`
 * answered as in Nest's RPC contexts, with the first argument, it would be the client's own
 * arguments, and a caller sending `{ user: { roles: ['admin'] } }` would pass.
 */
@Injectable()
class RouteAdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{ user?: { roles?: string[] } }>();
    return req.user?.roles?.includes('admin') === true;
  }
}

/** The same rule written for tools too: it reads the caller from the call. */
@Injectable()
class CallerAdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType<string>() !== TOOLWRIGHT_CONTEXT) return false;
    const call = context.switchToRpc().getContext<{ authInfo?: { extra?: { roles?: string[] } } }>();
    return call.authInfo?.extra?.roles?.includes('admin') === true;
  }
}

/** An interceptor written for routes: it reads the request's URL. */
@Injectable()
class RouteLoggingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    void context.switchToHttp().getRequest<{ url?: string }>().url;
    return next.handle();
  }
}

class UserDto {
  @IsString() name!: string;
  @IsArray() @IsString({ each: true }) roles!: string[];
}
class CreateUserInput {
  @ValidateNested() @Type(() => UserDto) user!: UserDto;
}

@Injectable()
class UserTools {
  @Tool({ description: 'Create a user (admins only, route guard).' })
  @UseGuards(RouteAdminGuard)
  createUser(@Args() input: CreateUserInput) {
    return `created ${input.user.name}`;
  }

  @Tool({ description: 'Create a user (admins only, tool-aware guard).' })
  @UseGuards(CallerAdminGuard)
  createUserChecked(@Args() input: CreateUserInput) {
    return `created ${input.user.name}`;
  }

  @Tool({ description: 'Say hello (route interceptor).' })
  @UseInterceptors(RouteLoggingInterceptor)
  hello() {
    return 'hello';
  }
}

const ADMIN_IN_ARGUMENTS = { user: { name: 'eve', roles: ['admin'] } };

describe('Nest guards and interceptors written for routes, on tool classes', () => {
  const logged: string[] = [];
  const keep = (message: string, data?: unknown) => void logged.push(`${message} ${inspect(data)}`);
  const logger: ToolLogger = { debug: () => {}, info: () => {}, warn: keep, error: keep };
  const served = useNestEndpoint({ name: 'users', version: '1.0.0', tools: [UserTools], providers: [RouteAdminGuard, CallerAdminGuard, RouteLoggingInterceptor], logger });

  it.each(ERAS)("%s: a guard reading switchToHttp().getRequest() never gets the client's arguments as the request: the call fails, the log names the fix", async (era) => {
    const client = await connectEra(era, served.url);
    try {
      logged.length = 0;
      const forged = await client.callTool('create_user', ADMIN_IN_ARGUMENTS);
      expect(forged.isError).toBe(true);
      expect(JSON.stringify(forged)).not.toContain('created eve');
      expect(logged.join('\n')).toMatch(/UserTools\.createUser/);
      expect(logged.join('\n')).toMatch(/called context\.switchToHttp\(\), but a tool call is not an HTTP request.*context\.getType\(\) === 'toolwright'/s);
      // A guard that reads the caller from the call refuses the same forged arguments, as it should.
      const checked = await client.callTool('create_user_checked', ADMIN_IN_ARGUMENTS);
      expect(checked).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Forbidden: tool 'create_user_checked' is not allowed/) }] });
      // An interceptor written for routes fails the call the same way, with the fix in the log.
      logged.length = 0;
      expect((await client.callTool('hello', {})).isError).toBe(true);
      expect(logged.join('\n')).toMatch(/switchToHttp\(\)/);
    } finally {
      await client.close();
    }
  });
});
