import 'reflect-metadata';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';

/**
 * What `ctx.envelope` reads from a request, through a real client of each era: the trace
 * context (`traceparent`, `tracestate`, `baggage` in `_meta`), the client's name and the log
 * level (per request in 2026-07-28, from the session in 2025).
 */
class EnvelopeTools {
  @Tool({ description: 'Reports the request envelope.' })
  envelope(@Ctx() ctx: ToolContext) {
    const { protocolVersion, clientInfo, logLevel, trace } = ctx.envelope;
    return JSON.stringify({ era: ctx.era, protocolVersion, clientInfo, logLevel: logLevel ?? null, trace });
  }
}

const TRACE = {
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  tracestate: 'vendor=opaque',
  baggage: 'tenant=t1,region=eu',
};
const clientInfo = { name: 'probe', version: '9.1.0' };

describe('ctx.envelope', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'envelope', version: '1.0.0', tools: [EnvelopeTools] });
  });
  const envelopeOf = async (client: { callTool(p: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<unknown> }, meta?: Record<string, unknown>) =>
    JSON.parse(await toolText(client.callTool({ name: 'envelope', arguments: {}, ...(meta && { _meta: meta }) }) as never));

  it('on a 2026-07-28 request: the trace, the client and the log level it carries', async () => {
    const client = await createTestClient(app, { protocol: '2026-07-28', clientInfo });
    try {
      const envelope = await envelopeOf(client, { ...TRACE, 'io.modelcontextprotocol/logLevel': 'warning' });
      expect(envelope).toEqual({ era: 'modern', protocolVersion: '2026-07-28', clientInfo, logLevel: 'warning', trace: TRACE });
      // Another request, without them: nothing carries over (no level: no log notifications).
      expect(await envelopeOf(client)).toMatchObject({ logLevel: null, trace: {} });
    } finally {
      await client.close();
    }
  });

  it('on a 2025 session: the trace of the request, the client of initialize, the level it set', async () => {
    const client = await createTestClient(app, { protocol: '2025-11-25', clientInfo });
    try {
      // Until the client sets a level, the session's own (info).
      expect(await envelopeOf(client)).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', clientInfo, logLevel: 'info', trace: {} });
      await client.setLoggingLevel('error');
      expect(await envelopeOf(client, TRACE)).toEqual({ era: 'legacy', protocolVersion: '2025-11-25', clientInfo, logLevel: 'error', trace: TRACE });
    } finally {
      await client.close();
    }
  });
});
