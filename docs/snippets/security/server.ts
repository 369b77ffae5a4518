import 'reflect-metadata';
import { createApp, type App } from '@toolwright/server';
import { envAuthInfo, jwtVerifier } from '@toolwright/server/auth';
import { NoteTools } from './notes.tools';

// #region jwt
export async function serveWithJwt(app: App) {
  const resource = 'https://notes.example.com/mcp'; // this server, as clients reach it
  return app.listen({
    transport: 'http',
    port: 3000,
    auth: {
      resource,
      authorizationServers: ['https://auth.example.com'],
      scopesSupported: ['notes:read', 'notes:write'],
      verifyToken: jwtVerifier({
        issuer: 'https://auth.example.com',
        audience: resource, // tokens issued for other services are refused
        jwksUrl: 'https://auth.example.com/.well-known/jwks.json',
      }),
    },
  });
}
// #endregion jwt

// #region custom
export async function serveWithApiKeys(app: App, keys: Map<string, { team: string; scopes: string[] }>, port = 3000) {
  return app.listen({
    transport: 'http',
    port,
    auth: {
      resource: 'https://notes.example.com/mcp',
      authorizationServers: ['https://auth.example.com'],
      verifyToken: (token) => {
        const key = keys.get(token);
        return key && { token, clientId: key.team, scopes: key.scopes }; // undefined -> 401
      },
    },
  });
}
// #endregion custom

// #region stdio
export async function serveStdio() {
  const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NoteTools] });
  // MCP_SCOPES="notes:read notes:write" MCP_ROLES=admin node dist/server.js
  return app.listen({ transport: 'stdio', authInfo: envAuthInfo() });
}
// #endregion stdio
