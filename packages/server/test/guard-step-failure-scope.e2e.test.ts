import { Resource, Scoped, Tool, UseGuards, type GuardClass, type MemberAccess } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { Lease } from './fixtures/Lease';
import { waitFor } from './fixtures/waitFor';

/**
 * A @Scoped guard that throws, logged by a logger that throws too: the guard step fails (not a
 * refusal), and the request scope its guard class was built in is still disposed.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

@Scoped('request')
class ThrowingGuard implements GuardClass {
  constructor(private readonly lease: Lease) {}
  canActivate(_access: MemberAccess): boolean {
    throw new Error(`guard broke (lease ${this.lease.id})`);
  }
}

class Tools {
  @UseGuards(ThrowingGuard)
  @Tool({ description: 'guarded' })
  guarded() {
    return 'guarded';
  }

  @UseGuards(ThrowingGuard)
  @Resource('file:///guarded.txt')
  file() {
    return 'file';
  }
}

const throwingLogger = {
  ...silent,
  error: () => {
    throw new Error('log sink down');
  },
};

describe.each(['legacy', 'modern'] as const)('a @Scoped guard step that fails, %s', (era) => {
  beforeEach(() => {
    Lease.made = 0;
    Lease.disposed = [];
  });
  it.each([
    ['a logger that works', silent],
    ['a logger that throws', throwingLogger],
  ])('disposes the guard scope of a tool call and a resource read with %s', async (_label, logger) => {
    const app = await createApp({ name: 'scoped-failed', version: '1', tools: [Tools], logger });
    const client = await createTestClient(app, { era });
    try {
      // Refused (a guard that throws refuses) or, when the log sink fails too, the generic internal error.
      await client.callTool({ name: 'guarded', arguments: {} }).catch(() => undefined);
      await client.readResource({ uri: 'file:///guarded.txt' }).catch(() => undefined);
      await waitFor(() => Lease.disposed.length === 2);
      expect(Lease.made).toBe(2);
      expect(Lease.disposed).toEqual([1, 2]);
    } finally {
      await client.close();
    }
  });
});
