import { Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { jwtVerifier } from '@toolwright/server/auth';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';

export class GreeterTools {
  @Tool({ description: 'Greet someone by name.' })
  greet(@Param('name') name: string): string {
    return `Hello, ${name}!`;
  }
}

// #region handler
export async function createHandler(): Promise<FetchHandler> {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  return createFetchHandler(app, {
    allowedHosts: ['mcp.example.com'], // the names clients reach you by (loopback names are always allowed)
    stateless: true, // no 2025-era sessions: for runtimes whose isolates share no memory
  });
}
// #endregion handler

// #region auth
export async function createProtectedHandler(): Promise<FetchHandler> {
  const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
  return createFetchHandler(app, {
    allowedHosts: ['mcp.example.com'],
    auth: {
      verifyToken: jwtVerifier({ issuer: 'https://auth.example.com', audience: 'https://mcp.example.com/mcp', jwksUrl: 'https://auth.example.com/.well-known/jwks.json' }),
      resource: 'https://mcp.example.com/mcp', // required: a Request does not say which URL clients use
      authorizationServers: ['https://auth.example.com'],
    },
  });
}
// #endregion auth
