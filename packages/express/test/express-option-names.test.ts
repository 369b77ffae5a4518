import 'reflect-metadata';
import { toolwrightMiddleware } from '@toolwright/express';
import { stuckApp } from '../../server/test/fixtures/stuckApp';

/** A misspelt option of the middleware would be ignored, and the endpoint served without the defence it names: mounting refuses it. */
describe('Express 5 middleware, the names of its options', () => {
  it('refuses an option it does not have when mounted, naming the middleware, the nearest option and its page', async () => {
    const { app } = await stuckApp();
    expect(() => toolwrightMiddleware(app, { alowedHosts: ['mcp.example.com'] } as never)).toThrow(
      'Toolwright: toolwrightMiddleware (@toolwright/express) has no option `alowedHosts` (did you mean `allowedHosts`?). Fix the name or remove it; the options are on the Express 5 page of the docs.',
    );
    expect(() => toolwrightMiddleware(app, { port: 3000 } as never)).toThrow('toolwrightMiddleware (@toolwright/express) has no option `port`.');
  });

  it("takes its own drainTimeoutMs beside the handler's options", async () => {
    const { app } = await stuckApp();
    const mcp = toolwrightMiddleware(app, { drainTimeoutMs: 100, allowedHosts: ['127.0.0.1'], requestLogLevel: 'silent', path: '/tools' });
    await mcp.ready;
    await mcp.close();
  });
});
