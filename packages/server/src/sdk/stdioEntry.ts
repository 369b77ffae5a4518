/** The SDK's stdio entry (`@modelcontextprotocol/server/stdio`), loaded only by servers that serve stdio in the 2026-07-28 era. */
export { serveStdio } from '@modelcontextprotocol/server/stdio';
