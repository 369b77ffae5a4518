import 'reflect-metadata';
import Fastify from 'fastify';
import { createApp } from '@toolwright/server';
import { toolwrightPlugin } from '@toolwright/fastify';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';

/**
 * A `path` without its leading '/' is refused when the plugin registers, with the path to write.
 * It used to fail inside Fastify's route registration with an AssertionError ("The first
 * character of a path should be `/` or `*`") that named neither the option nor the plugin.
 */
describe('toolwrightPlugin path option', () => {
  it.each([
    ['mcp', "Toolwright: toolwrightPlugin's path \"mcp\" does not start with '/', as every Fastify route does (under a prefix too). Write path: '/mcp'."],
    ['', "Toolwright: toolwrightPlugin's path \"\" does not start with '/', as every Fastify route does (under a prefix too). Write path: '/mcp'."],
  ])('refuses %j, saying what to write', async (path, message) => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const fastify = Fastify();
    try {
      await expect(fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent', path }).ready()).rejects.toThrow(message);
    } finally {
      await fastify.close().catch(() => undefined);
    }
  });
});
