'use strict';
// The web-standard handlers bench/edge compares, each `(request: Request) => Promise<Response>`
// on every runtime (workerd, Deno, Bun), stateless (a Worker's isolates share no memory), each in a
// file of its own so that a Worker bundle (build-workers.mjs) holds only its own handler's code:
//   toolwright: toolwrightHandler.js, the weather example's tools through createFetchHandler
//   sdk:        sdkHandler.js, the same tools by hand on the SDK v2's createMcpHandler(...).fetch
//               (a low-level Server, arguments checked by hand: the leanest server the SDK allows)
//   sdkZod:     sdkZodHandler.js, the same tools on an McpServer with zod schemas (registerTool),
//               as the SDK's docs teach, on the same createMcpHandler(...).fetch
// Each is built on its first request, as a Worker must.

module.exports = {
  toolwright: () => require('./toolwrightHandler.js').toolwright(),
  sdk: () => require('./sdkHandler.js').sdk(require('@modelcontextprotocol/server')),
  sdkZod: () => require('./sdkZodHandler.js').sdkZod(require('@modelcontextprotocol/server'), require('zod')),
};
