import 'reflect-metadata';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { rateLimit } from '@toolwright/server/middleware';
import { createRedisCluster, createRedisMiddlewareStores, type RedisCluster, type RedisClusterOptions } from '@toolwright/redis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCertificates, startSecureRedisServer, type SecureRedisServer, type TestCertificates } from './fixtures/secureRedisServer';
import { textOf } from './fixtures/instances';

class Notes {
  @Tool({ description: 'Adds a note to this session, kept in Redis through ctx.session.' })
  async note(@Param('text') text: string, @Ctx() ctx: ToolContext) {
    const notes = [...((await ctx.session!.get<string[]>('notes')) ?? []), text];
    await ctx.session!.set('notes', notes);
    return notes.join(', ');
  }
}

/** An app served with `cluster`, one SDK client on it: adds two notes (a session, events, ctx.session and a rate limit, all in Redis). */
async function serveAndUse(cluster: RedisCluster): Promise<string[]> {
  const stores = createRedisMiddlewareStores(cluster);
  const app = await createApp({ name: 'notes', version: '1', tools: [Notes], middleware: [rateLimit({ capacity: 10, refillPerSecond: 1, store: stores.rateLimit })] });
  const listener: HttpListener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, cluster });
  const client = new Client({ name: 'secure-redis', version: '1' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    return [textOf(await client.callTool({ name: 'note', arguments: { text: 'tea' } }))!, textOf(await client.callTool({ name: 'note', arguments: { text: 'milk' } }))!];
  } finally {
    await client.close();
    await listener.close();
  }
}

/** createRedisCluster's error, and every line it logged meanwhile. */
async function startupFailure(options: RedisClusterOptions): Promise<{ message: string; logged: string }> {
  const lines: string[] = [];
  try {
    const cluster = await createRedisCluster({ connectTimeoutMs: 3000, ...options, logWrite: (line) => void lines.push(line) });
    await cluster.close();
  } catch (error) {
    return { message: (error as Error).message, logged: lines.join('') };
  }
  throw new Error('createRedisCluster connected, though it should not have');
}

describe('Redis over TLS: rediss:// to a redis-server that has no plaintext port', () => {
  let dir: string;
  let certs: TestCertificates;
  let redis: SecureRedisServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolwright-tls-'));
    certs = makeCertificates(dir);
    redis = await startSecureRedisServer(
      (port) => ['--port', '0', '--tls-port', String(port)],
      ['--tls-cert-file', certs.certFile, '--tls-key-file', certs.keyFile, '--tls-ca-cert-file', certs.caFile, '--tls-auth-clients', 'no'],
      { ca: certs.ca },
    );
  });
  afterAll(async () => {
    await redis?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves sessions, ctx.session and rate limits over TLS when the CA is trusted (redis.tls.ca)', async () => {
    const cluster = await createRedisCluster({ url: `rediss://127.0.0.1:${redis.port}`, redis: { tls: { ca: certs.ca } }, prefix: 'tls:', logWrite: () => {} });
    try {
      expect(await serveAndUse(cluster)).toEqual(['tea', 'tea, milk']);
      expect((await cluster.redis.keys('tls:st:*')).length).toBe(1);
    } finally {
      await cluster.close();
    }
  });

  it('refuses, at startup and saying why, a server whose certificate it does not trust', async () => {
    const { message } = await startupFailure({ url: `rediss://127.0.0.1:${redis.port}` });
    expect(message).toMatch(/^@toolwright\/redis: cannot reach Redis at rediss:\/\/127\.0\.0\.1:\d+ \(.*certificate.*\)/i);
  });

  it('cannot talk plaintext to the TLS port: redis:// fails at startup', async () => {
    const { message } = await startupFailure({ url: `redis://127.0.0.1:${redis.port}`, connectTimeoutMs: 1000 });
    expect(message).toMatch(/^@toolwright\/redis: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ /);
  });
});

describe('Redis ACL users: redis://user:password@ against a redis-server whose default user is off', () => {
  const password = 'c0rrect-h0rse@battery';
  let redis: SecureRedisServer;
  const url = (user: string, pass: string) => `redis://${user}:${pass}@127.0.0.1:${redis.port}`;

  beforeAll(async () => {
    // The least a Toolwright app needs: its prefix's keys and channels, every command but the dangerous ones, and INFO (ioredis's ready check).
    redis = await startSecureRedisServer(
      (port) => ['--port', String(port)],
      ['--user', 'default', 'off', '--user', 'notes', 'on', `>${password}`, '~notes:*', '&notes:*', '+@all', '-@dangerous', '+info'],
    );
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('serves sessions, ctx.session and rate limits as a user limited to its prefix (a password with @ in the url as written)', async () => {
    const cluster = await createRedisCluster({ url: url('notes', password), prefix: 'notes:', logWrite: () => {} });
    try {
      expect(await serveAndUse(cluster)).toEqual(['tea', 'tea, milk']);
      expect(await cluster.redis.call('ACL', 'WHOAMI')).toBe('notes');
    } finally {
      await cluster.close();
    }
  });

  it('refuses wrong credentials at startup with an error that says so and does not print the password', async () => {
    const wrong = 'wr0ng-Zq9x@Kv7y';
    const { message, logged } = await startupFailure({ url: url('notes', wrong), prefix: 'notes:' });
    expect(message).toMatch(/^@toolwright\/redis: Redis at redis:\/\/\*\*\*@127\.0\.0\.1:\d+ refused to let this client in \(WRONGPASS/);
    expect(message).toMatch(/Check the user and password/);
    for (const text of [message, logged]) {
      for (const secret of [wrong, 'wr0ng', 'Zq9x', 'Kv7y', encodeURIComponent(wrong)]) expect(text).not.toContain(secret);
    }
  });

  it('refuses a client without credentials (NOAUTH) and a password given as redis.password, without printing it', async () => {
    expect((await startupFailure({ url: `redis://127.0.0.1:${redis.port}` })).message).toMatch(/refused to let this client in \(NOAUTH/);
    const { message, logged } = await startupFailure({ url: `redis://127.0.0.1:${redis.port}`, redis: { username: 'notes', password: 'not-the-password' } });
    expect(message).toMatch(/refused to let this client in \(WRONGPASS/);
    expect(message + logged).not.toContain('not-the-password');
  });

  it("keeps a user to its prefix: the same user with another app's prefix is refused at startup (NOPERM)", async () => {
    const { message } = await startupFailure({ url: url('notes', password), prefix: 'billing:' });
    expect(message).toMatch(/NOPERM/);
    expect(message).not.toContain(password);
  });
});
