import 'reflect-metadata';
import { createRouteHandlers } from '@toolwright/next';
import { {{appFactory}} } from './app';

/**
 * The MCP endpoint's route handlers, one set per server process (app/mcp/route.ts exports them).
 * 2025-11-25 sessions live in this process's memory; where requests of one client may reach
 * different instances (Vercel), set MCP_STATELESS=1. Loopback Host names only until you list
 * yours in `allowedHosts`.
 */
export const mcp = createRouteHandlers({{appFactory}}(), { stateless: process.env.MCP_STATELESS === '1' });
