import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectClient, initializeBody, post, textOf } from './fixtures/httpHelpers';

const SERVER = join(__dirname, 'fixtures', 'auth-server.js');
const ISSUER = 'https://issuer.example.test';
const RESOURCE = 'https://mcp.example.test/mcp';
const b64 = (value: object | Buffer) => (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');

function jwt(key: KeyObject, claims: Record<string, unknown>, kid = 'k1'): string {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64({ iss: ISSUER, aud: RESOURCE, sub: 'alice', client_id: 'app-1', iat: now, exp: now + 600, ...claims })}`;
  return `${body}.${b64(sign('sha256', Buffer.from(body), key))}`;
}

describe('the ready JWT verifier over HTTP (JWKS fetched from the issuer)', () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let jwks: Server;
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const jwk = { ...keys.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    child = spawn(process.execPath, [SERVER, 'http'], { env: { ...process.env, JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json` }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    url = await new Promise<string>((resolve, reject) => {
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const match = /url=(\S+)/.exec(stderr);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`fixture exited ${code}: ${stderr}`)));
    });
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await new Promise((r) => jwks.close(r));
  });

  it('accepts a valid token and filters tools by its scopes and roles', async () => {
    const list = async (claims: Record<string, unknown>) => {
      const { client } = await connectClient(url, { headers: { authorization: `Bearer ${jwt(keys.privateKey, claims)}` } });
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      await client.close();
      return names;
    };
    expect(await list({ scope: 'notes:read' })).toEqual(['note_count', 'read_notes']);
    expect(await list({ scope: 'notes:read notes:write' })).toEqual(['note_count', 'read_notes', 'write_note']);
    expect(await list({ roles: ['admin'] })).toEqual(['note_count', 'restart']);
  });

  it.each([
    ['another audience', { aud: 'https://other.example.test/mcp' }, keys.privateKey],
    ['another issuer', { iss: 'https://evil.example.test' }, keys.privateKey],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 120 }, keys.privateKey],
    ['a token without exp', { exp: undefined }, keys.privateKey],
    ['a foreign signature', {}, stranger.privateKey],
  ])('401 invalid_token for %s', async (_what, claims, key) => {
    const response = await post(url, initializeBody(), { authorization: `Bearer ${jwt(key, claims)}` });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/mcp"');
  });
});

describe('the same authorization over stdio, with the caller from the environment', () => {
  const connect = async (env: Record<string, string>) => {
    const client = new Client({ name: 'stdio-auth', version: '1' });
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MCP_'))) as Record<string, string>;
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER, 'stdio'], env: { ...clean, ...env }, stderr: 'pipe' }));
    return client;
  };

  it('shows and refuses exactly what HTTP does for the same scopes', async () => {
    const client = await connect({ MCP_SCOPES: 'notes:read' });
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['note_count', 'read_notes']);
    expect(textOf(await client.callTool({ name: 'read_notes', arguments: {} }))).toBe('notes');
    await expect(client.callTool({ name: 'write_note', arguments: {} })).rejects.toThrow("Unknown tool 'write_note'. Call tools/list to see the available tools.");
    await client.close();
  });

  it('treats a caller without variables as anonymous: public tools only', async () => {
    const client = await connect({});
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['note_count']);
    await expect(client.callTool({ name: 'read_notes', arguments: {} })).rejects.toThrow("Unknown tool 'read_notes'. Call tools/list to see the available tools.");
    await client.close();
  });

  it('reads roles too', async () => {
    const client = await connect({ MCP_ROLES: 'admin', MCP_CLIENT_ID: 'ops-console' });
    expect(textOf(await client.callTool({ name: 'restart', arguments: {} }))).toBe('restarted');
    await client.close();
  });
});
