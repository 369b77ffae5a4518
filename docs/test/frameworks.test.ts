import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { startExpress } from '../snippets/frameworks/express';
import { startFastify } from '../snippets/frameworks/fastify';
import { startHono } from '../snippets/frameworks/hono';
import { startNest } from '../snippets/frameworks/nestjs';
import { ERAS, connectEra } from '../../packages/express/test/fixtures/mcpClients';

/** The Frameworks page's snippets, run as the page shows them (port 0), driven by the SDK clients in both eras. */
describe('frameworks guide', () => {
  // The snippets log each request to stderr, as a server should.
  let stderr: jest.SpyInstance;
  beforeAll(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterAll(() => stderr.mockRestore());

  it.each(ERAS)('Express: the snippet serves /mcp beside /status (%s)', async (era) => {
    const { server, close } = await startExpress(0);
    await new Promise((resolve) => (server.listening ? resolve(undefined) : server.once('listening', resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/status`)).json()).toEqual({ up: true });
      const client = await connectEra(era, `${base}/mcp`);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    } finally {
      await close();
    }
  });

  it.each(ERAS)('Fastify: the snippet serves /mcp beside /status (%s)', async (era) => {
    const fastify = await startFastify(0);
    const base = `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/status`)).json()).toEqual({ up: true });
      const client = await connectEra(era, `${base}/mcp`);
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    } finally {
      await fastify.close();
    }
  });

  it.each(ERAS)('Hono: the snippet serves /mcp beside /status, behind its bearer middleware (%s)', async (era) => {
    const { server, close } = await startHono(0);
    await new Promise((resolve) => (server.listening ? resolve(undefined) : server.once('listening', resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/status`)).json()).toEqual({ up: true });
      await expect(connectEra(era, `${base}/mcp`)).rejects.toThrow();
      const client = await connectEra(era, `${base}/mcp`, { authorization: 'Bearer dev-token' });
      expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
      await client.close();
    } finally {
      await close();
    }
  });

  it.each(ERAS)('NestJS: the snippet serves Nest-built tools on the app port; the Nest guard refuses restock without the staff scope (%s)', async (era) => {
    const nest = await startNest(0);
    nest.useLogger(false);
    const base = (await nest.getUrl()).replace('[::1]', '127.0.0.1');
    try {
      expect(await (await fetch(`${base}/status`)).json()).toEqual({ up: true });
      const client = await connectEra(era, `${base}/mcp`);
      expect(JSON.parse((await client.callTool('stock', { sku: 'mug' })).content[0].text!)).toEqual({ sku: 'mug', count: 12 });
      const restock = await client.callTool('restock', { sku: 'mug' });
      expect(restock.isError).toBe(true);
      expect(restock.content[0].text).toMatch(/^Forbidden/);
      await client.close();
    } finally {
      await nest.close();
    }
  });
});
