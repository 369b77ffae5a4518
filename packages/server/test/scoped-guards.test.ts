import { FromCall, Resource, Scoped, Tool, UseGuards, type AuthInfo, type Guard, type GuardClass, type MemberAccess, type ToolLogger } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { ServiceScope } from '@toolwright/core/internal';
import { Service } from 'typedi';
import { Lease } from './fixtures/Lease';

/**
 * A guard class marked @Scoped is built per call by that call's container (docs/guide/middleware.md,
 * "Class middleware with dependency injection"). It used to be asked of the app's container, which
 * cannot build it: every call was refused and every list left the member out.
 */
const ERAS = ['legacy', 'modern'] as const;
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

function recordingLogger() {
  const errors: string[] = [];
  const logger: ToolLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message, error) => void errors.push(`${message} ${String(error)}`) };
  return { logger, errors };
}

/** A tool class with two tools: `guarded`, behind `guard`, and `open`, behind none; each answers its own name. */
function toolsBehind(guard: Guard) {
  class GuardedTools {
    @UseGuards(guard)
    @Tool({ description: 'guarded' })
    guarded() {
      return 'guarded';
    }
    @Tool({ description: 'open' })
    open() {
      return 'open';
    }
  }
  return GuardedTools;
}

/** What the guards saw, and what the tools saw, by call. */
const seen: { guard: number[]; tool: number[] } = { guard: [], tool: [] };

@Scoped('request')
class LeaseGuard implements GuardClass {
  constructor(private readonly lease: Lease) {}
  canActivate(_access: MemberAccess) {
    seen.guard.push(this.lease.id);
    return this.lease.id > 0;
  }
}

@Scoped('request')
class LeaseTools {
  constructor(private readonly lease: Lease) {}

  @UseGuards(LeaseGuard)
  @Tool({ description: 'ok' })
  ok() {
    seen.tool.push(this.lease.id);
    return 'ran';
  }
}

describe('@Scoped guard classes', () => {
  beforeEach(() => {
    seen.guard = [];
    seen.tool = [];
    Lease.disposed = [];
  });

  it.each(ERAS)('lets a call through a request-scoped guard that injects a request-scoped service (%s)', async (era) => {
    const { logger, errors } = recordingLogger();
    const app = await createApp({ name: 'scoped-guard', version: '1', tools: [toolsBehind(LeaseGuard)], logger });
    const client = await createTestClient(app, { era });
    try {
      expect(textOf(await client.callTool({ name: 'guarded', arguments: {} }))).toBe('guarded');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['guarded', 'open']);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('shares one request-scoped instance between the guard and the tool per call, a new one per call, disposed once (%s)', async (era) => {
    const app = await createApp({ name: 'scoped-guard-shared', version: '1', tools: [LeaseTools], logger: recordingLogger().logger });
    const client = await createTestClient(app, { era });
    try {
      expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toBe('ran');
      expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toBe('ran');
      expect(seen.guard).toHaveLength(2);
      expect(seen.tool).toEqual(seen.guard);
      expect(seen.tool[0]).not.toBe(seen.tool[1]);
      expect(Lease.disposed).toEqual(seen.tool);
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('gives a list check a request scope of its own, disposed after it (%s)', async (era) => {
    const app = await createApp({ name: 'scoped-guard-list', version: '1', tools: [LeaseTools], logger: recordingLogger().logger });
    const client = await createTestClient(app, { era });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['ok']);
      expect(seen.guard).toHaveLength(1);
      expect(Lease.disposed).toEqual(seen.guard);
      expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toBe('ran');
      expect(seen.guard).toHaveLength(2);
      expect(seen.guard[0]).not.toBe(seen.guard[1]);
      expect(Lease.disposed).toEqual(seen.guard);
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('builds a session-scoped guard class too (%s)', async (era) => {
    @Scoped('session')
    class Seat {
      static made = 0;
      readonly id = ++Seat.made;
    }
    @Scoped('session')
    class SessionGuard {
      constructor(private readonly seat: Seat) {}
      canActivate() {
        return this.seat.id > 0;
      }
    }
    const app = await createApp({ name: 'session-guard', version: '1', tools: [toolsBehind(SessionGuard)], logger: recordingLogger().logger });
    const client = await createTestClient(app, { era });
    try {
      expect(textOf(await client.callTool({ name: 'guarded', arguments: {} }))).toBe('guarded');
      expect(textOf(await client.callTool({ name: 'guarded', arguments: {} }))).toBe('guarded');
      // One session over a 2025-era connection; a 2026-07-28 request belongs to none, so it is built per call.
      expect(Seat.made).toBe(era === 'legacy' ? 1 : 2);
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)("hands a scoped guard the caller through @FromCall('caller') (%s)", async (era) => {
    @Scoped('request')
    class CallerGuard {
      constructor(@FromCall('caller') private readonly caller: AuthInfo | undefined) {}
      canActivate() {
        return this.caller?.clientId === 'alice';
      }
    }
    const app = await createApp({ name: 'caller-guard', version: '1', tools: [toolsBehind(CallerGuard)], logger: recordingLogger().logger });
    const alice = await createTestClient(app, { era, auth: { token: 't', clientId: 'alice', scopes: [] } });
    const anonymous = await createTestClient(app, { era });
    try {
      expect(textOf(await alice.callTool({ name: 'guarded', arguments: {} }))).toBe('guarded');
      await expect(anonymous.callTool({ name: 'guarded', arguments: {} })).rejects.toThrow(/guarded/);
      expect((await anonymous.listTools()).tools.map((t) => t.name)).toEqual(['open']);
    } finally {
      await alice.close();
      await anonymous.close();
    }
  });

  it.each(ERAS)("refuses, naming the member and the fix, a scoped guard that takes @FromCall('context'), and keeps serving (%s)", async (era) => {
    @Scoped('request')
    class ContextGuard {
      constructor(@FromCall('context') readonly ctx: unknown) {}
      canActivate() {
        return true;
      }
    }
    const { logger, errors } = recordingLogger();
    const app = await createApp({ name: 'context-guard', version: '1', tools: [toolsBehind(ContextGuard)], logger });
    const client = await createTestClient(app, { era });
    try {
      await expect(client.callTool({ name: 'guarded', arguments: {} })).rejects.toThrow(/guarded/);
      expect(errors.join('\n')).toMatch(/a guard of tool 'guarded' threw.*@FromCall\('context'\).*guards decide before the call's context exists/s);
      expect(textOf(await client.callTool({ name: 'open', arguments: {} }))).toBe('open');
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('builds an unscoped guard class once for the app, and opens no container for it, per call or per list (%s)', async (era) => {
    @Service()
    class OpenGuard {
      static made = 0;
      constructor() {
        OpenGuard.made++;
      }
      canActivate() {
        return true;
      }
    }
    const disposed = jest.spyOn(ServiceScope.prototype, 'dispose');
    const app = await createApp({ name: 'open-guard', version: '1', tools: [toolsBehind(OpenGuard)], logger: recordingLogger().logger });
    const client = await createTestClient(app, { era });
    try {
      for (let i = 0; i < 3; i++) expect(textOf(await client.callTool({ name: 'guarded', arguments: {} }))).toBe('guarded');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['guarded', 'open']);
      expect(OpenGuard.made).toBe(1);
      expect(disposed).not.toHaveBeenCalled();
    } finally {
      disposed.mockRestore();
      await client.close();
    }
  });

  it.each(ERAS)('uses a test override of a service a scoped guard injects (%s)', async (era) => {
    @Service()
    class Policy {
      allows() {
        return true;
      }
    }
    @Scoped('request')
    class PolicyGuard {
      constructor(private readonly policy: Policy) {}
      canActivate() {
        return this.policy.allows();
      }
    }
    class PolicyTools {
      @UseGuards(PolicyGuard)
      @Tool({ description: 'ok' })
      ok() {
        return 'ran';
      }
      @UseGuards(PolicyGuard)
      @Resource('policy://doc', { description: 'doc' })
      doc() {
        return 'doc';
      }
    }
    const app = await createApp({ name: 'policy-guard', version: '1', tools: [PolicyTools], logger: recordingLogger().logger });
    const real = await createTestClient(app, { era });
    const denied = await createTestClient(app, { era, overrides: [[Policy, { allows: () => false }]] });
    try {
      expect(textOf(await real.callTool({ name: 'ok', arguments: {} }))).toBe('ran');
      await expect(denied.callTool({ name: 'ok', arguments: {} })).rejects.toThrow(/ok/);
      expect((await denied.listTools()).tools).toEqual([]);
      expect((await denied.listResources()).resources).toEqual([]);
      await expect(denied.readResource({ uri: 'policy://doc' })).rejects.toThrow();
    } finally {
      await real.close();
      await denied.close();
    }
  });
});

/**
 * A scoped guard that misses its deadline still runs after the caller has been refused: the
 * request scope that built it used to be disposed at once, under it. It now lives until the guard settles.
 */
describe('a @Scoped guard that misses its deadline', () => {
  @Scoped('request')
  class Ticket {
    static disposed = 0;
    disposed = false;
    dispose() {
      this.disposed = true;
      Ticket.disposed++;
    }
  }

  /** What the slow guard found once it went on: whether its ticket was already disposed. */
  const found: boolean[] = [];
  let gate: { open: () => void; opened: Promise<void> };
  const newGate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    gate = { open, opened };
  };

  let guardsStarted = 0;

  @Scoped('request')
  class SlowGuard implements GuardClass {
    constructor(private readonly ticket: Ticket) {}
    async canActivate() {
      guardsStarted++;
      await gate.opened;
      found.push(this.ticket.disposed);
      return true;
    }
  }

  const SlowTools = toolsBehind(SlowGuard);

  const waitFor = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  /** Lets the waiting guard go on, and checks that its ticket was disposed after it decided, once. */
  const settleGuardThenExpectOneDisposal = async () => {
    expect(Ticket.disposed).toBe(0);
    gate.open();
    await waitFor(() => Ticket.disposed > 0);
    expect(found).toEqual([false]);
    expect(Ticket.disposed).toBe(1);
  };

  beforeEach(() => {
    found.length = 0;
    guardsStarted = 0;
    Ticket.disposed = 0;
    newGate();
  });

  it.each(ERAS)('refuses the call at its deadline but disposes the scope only once the guard has settled (%s)', async (era) => {
    const { logger, errors } = recordingLogger();
    const app = await createApp({ name: 'slow-scoped-guard', version: '1', tools: [SlowTools], logger, guardTimeoutMs: 50 });
    const client = await createTestClient(app, { era });
    try {
      // No clock here: the guard decides only when the test opens its gate, so a call that waited for it
      // instead of its 50 ms deadline would fail at jest's test timeout (30 s); the log line below names the deadline.
      await expect(client.callTool({ name: 'guarded', arguments: {} })).rejects.toThrow(/guarded/);
      expect(errors.join('\n')).toMatch(/guard class SlowGuard of tool 'guarded' did not decide within 50 ms/);
      expect(textOf(await client.callTool({ name: 'open', arguments: {} }))).toBe('open');
      await settleGuardThenExpectOneDisposal();
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('ends the wait when the client cancels the call, and disposes the scope only once the guard has settled (%s)', async (era) => {
    const app = await createApp({ name: 'slow-scoped-guard-cancel', version: '1', tools: [SlowTools], logger: recordingLogger().logger });
    const client = await createTestClient(app, { era });
    try {
      const abort = new AbortController();
      const called = client.callTool({ name: 'guarded', arguments: {} }, { signal: abort.signal });
      await waitFor(() => guardsStarted === 1);
      abort.abort('the user moved on');
      await expect(called).rejects.toThrow();
      expect(textOf(await client.callTool({ name: 'open', arguments: {} }))).toBe('open');
      await settleGuardThenExpectOneDisposal();
    } finally {
      await client.close();
    }
  });

  it.each(ERAS)('leaves the member out of a list at the deadline but disposes the scope only once the guard has settled (%s)', async (era) => {
    const app = await createApp({ name: 'slow-scoped-guard-list', version: '1', tools: [SlowTools], logger: recordingLogger().logger, guardTimeoutMs: 50 });
    const client = await createTestClient(app, { era });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['open']);
      await settleGuardThenExpectOneDisposal();
    } finally {
      await client.close();
    }
  });
});
