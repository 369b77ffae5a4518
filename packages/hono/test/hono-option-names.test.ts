import 'reflect-metadata';
import { toolwrightMiddleware } from '@toolwright/hono';
import { stuckApp } from '../../server/test/fixtures/stuckApp';

/** A misspelt option of the middleware would be ignored, and the endpoint served without the defence it names: mounting refuses it. */
describe('Hono middleware, the names of its options', () => {
  it('refuses an option it does not have when mounted, naming the middleware, the nearest option and its page', async () => {
    const { app } = await stuckApp();
    expect(() => toolwrightMiddleware(app, { clientAdress: () => '127.0.0.1' } as never)).toThrow(
      'Toolwright: toolwrightMiddleware (@toolwright/hono) has no option `clientAdress` (did you mean `clientAddress`?). Fix the name or remove it; the options are on the Hono page of the docs.',
    );
    expect(() => toolwrightMiddleware(app, { alowedOrigins: [] } as never)).toThrow('has no option `alowedOrigins` (did you mean `allowedOrigins`?)');
  });

  it("takes its own drainTimeoutMs and clientAddress beside the fetch handler's options", async () => {
    const { app } = await stuckApp();
    const mcp = toolwrightMiddleware(app, { drainTimeoutMs: 100, clientAddress: () => '127.0.0.1', logError: () => undefined, path: '/tools' });
    await mcp.close();
  });
});
