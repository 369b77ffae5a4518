import 'reflect-metadata';
import { Ctx, RequireScopes, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';
import { Service } from 'typedi';
import { BookingTools } from '../context/context.tools';

@Service()
export class Clock {
  now() {
    return new Date();
  }
}

@Service()
export class TimeTools {
  constructor(private readonly clock: Clock) {}

  @Tool({ description: 'The current year.' })
  year() {
    return this.clock.now().getUTCFullYear();
  }
}

export class NoteTools {
  @Tool({ description: 'Delete every note.' })
  @RequireScopes('notes:admin')
  purge(@Ctx() ctx: ToolContext) {
    return `purged by ${ctx.authInfo?.clientId}`;
  }
}

describe('the test kit', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'travel', version: '1.0.0', tools: [BookingTools, NoteTools, TimeTools] });
  });

  // #region answers
  it('answers the questions tools ask', async () => {
    const client = await createTestClient(app, {
      elicitation: { action: 'accept', content: { cabin: 'business', seats: 2 } },
      sampling: 'A short summary.',
      roots: [{ uri: 'file:///home/me/project', name: 'project' }],
    });
    expect(await toolText(client.callTool({ name: 'book_flight', arguments: { to: 'Oslo' } }))).toBe('Booked 2 business seat(s) to Oslo.');
    expect(await toolText(client.callTool({ name: 'summarize', arguments: { text: 'A long text.' } }))).toBe('A short summary.');
    await client.close();
  });
  // #endregion answers

  // #region auth
  it('calls as a given caller', async () => {
    const client = await createTestClient(app, { auth: { scopes: ['notes:admin'], clientId: 'ops' } });
    expect(await toolText(client.callTool({ name: 'purge', arguments: {} }))).toBe('purged by ops');
    await client.close();
  });
  // #endregion auth

  // #region overrides
  it('replaces a service for one client', async () => {
    const client = await createTestClient(app, { overrides: [[Clock, { now: () => new Date('2030-06-01T00:00:00Z') }]] });
    expect(await toolText(client.callTool({ name: 'year', arguments: {} }))).toBe('2030');
    await client.close();
  });
  // #endregion overrides

  // #region eras
  describe.each(['2025-11-25', '2026-07-28'] as const)('over HTTP, protocol %s', (protocol) => {
    it('books a flight', async () => {
      const client = await createTestClient(app, {
        transport: 'http',
        protocol,
        elicitation: (request) => (request.message.includes('Oslo') ? { action: 'accept', content: { cabin: 'economy', seats: 1 } } : { action: 'decline' }),
      });
      expect(await toolText(client.callTool({ name: 'book_flight', arguments: { to: 'Oslo' } }))).toBe('Booked 1 economy seat(s) to Oslo.');
      await client.close();
    });
  });
  // #endregion eras
});
