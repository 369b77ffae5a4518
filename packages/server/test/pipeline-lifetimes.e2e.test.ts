import { FromCall, Scoped, Tool, UseGuards, UseMiddleware, type MemberAccess, type MemberCall, type Next, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { Service } from 'typedi';

/**
 * Issue 23: a middleware (or guard) class that injects a request-scoped service but is not
 * itself @Scoped('request') built, then failed every call with the generic internal error.
 * Middleware and guard classes are now held to the tool classes' rule at build.
 */
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

let serial = 0;

@Scoped('request')
class RequestLog {
  readonly id = ++serial;
  readonly lines: string[] = [];
  constructor(@FromCall('context') readonly ctx: ToolContext) {}
}

@Service()
class Clock {
  now() {
    return 'noon';
  }
}

@Service()
class Tools {
  @Tool({ description: 'Says hi.' })
  hi() {
    return 'hi';
  }
}

describe('middleware and guard classes that inject request-scoped services', () => {
  it('refuses at build an app middleware class not marked @Scoped, naming the fix', async () => {
    @Service()
    class Audit {
      constructor(private readonly log: RequestLog) {}
      use(call: MemberCall, next: Next) {
        this.log.lines.push(call.name);
        return next();
      }
    }
    await expect(createApp({ name: 'x', version: '1', tools: [Tools], middleware: [Audit] })).rejects.toThrow(
      /Audit \(middleware\): injects RequestLog, which is @Scoped\('request'\), but this middleware is itself built once for the app.*Fix: mark Audit @Scoped\('request'\) too/s,
    );
  });

  it('refuses @UseMiddleware and @UseGuards classes the same way, every problem in one error', async () => {
    @Service()
    class Deep {
      constructor(readonly log: RequestLog) {}
    }
    @Service()
    class Timing {
      constructor(
        readonly clock: Clock,
        readonly deep: Deep,
      ) {}
      use(_call: MemberCall, next: Next) {
        return next();
      }
    }
    @Service()
    class OwnerOnly {
      constructor(readonly log: RequestLog) {}
      canActivate(_access: MemberAccess) {
        return true;
      }
    }
    @Service()
    @UseMiddleware(Timing)
    class Guarded {
      @UseGuards(OwnerOnly)
      @Tool({ description: 'x' })
      x() {
        return 1;
      }
      @UseGuards(OwnerOnly)
      @Tool({ description: 'y' })
      y() {
        return 2;
      }
    }
    const failure = createApp({ name: 'x', version: '1', tools: [Guarded] });
    await expect(failure).rejects.toMatchObject({
      problems: [
        expect.objectContaining({ where: 'OwnerOnly (guard)', fix: "mark OwnerOnly @Scoped('request') too, so it is built per request with that request's services." }),
        expect.objectContaining({ where: 'Timing (middleware)', what: expect.stringContaining('injects Deep -> RequestLog') }),
      ],
    });
  });

  it('serves a middleware class marked @Scoped("request"): built per call with that call\'s services', async () => {
    @Scoped('request')
    class Audit {
      constructor(private readonly log: RequestLog) {}
      async use(call: MemberCall, next: Next) {
        this.log.lines.push(`before ${call.name}`);
        const result = await next();
        return { content: [{ type: 'text', text: `${textOf(result)} (log ${this.log.id} for ${this.log.ctx.toolName}: ${this.log.lines.join(', ')})` }] };
      }
    }
    const app = await createApp({ name: 'x', version: '1', tools: [Tools], middleware: [Audit] });
    const client = await createTestClient(app);
    const one = textOf(await client.callTool({ name: 'hi', arguments: {} }));
    const two = textOf(await client.callTool({ name: 'hi', arguments: {} }));
    expect(one).toMatch(/^hi \(log (\d+) for hi: before hi\)$/);
    expect(two).toMatch(/^hi \(log (\d+) for hi: before hi\)$/);
    expect(one).not.toBe(two);
    await client.close();
  });
});
