// The official MCP TypeScript SDK v2 client (@modelcontextprotocol/client), as a plain stdio client: used where the
// thing under test sits between it and the server (mcp-remote). options.negotiation: 'legacy' (the default of the
// SDK) or 'auto' (probe server/discover, fall back to initialize).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runPlan, unsupported } from './runPlan.mjs';

await runPlan(async ({ target, options = {} }) => {
  if (!target.stdio) throw new Error('drivers/mcp-sdk.mjs speaks stdio only');
  const client = new Client({ name: 'toolwright-interop', version: '1.0.0' }, { versionNegotiation: { mode: options.negotiation ?? 'legacy' } });
  await client.connect(new StdioClientTransport({ command: target.stdio.command, args: target.stdio.args, stderr: 'ignore' }));
  return {
    async step(step) {
      switch (step.op) {
        case 'listTools':
          return (await client.listTools()).tools;
        case 'callTool':
          return await client.callTool({ name: step.name, arguments: step.arguments });
        case 'listResources':
          return (await client.listResources()).resources;
        case 'readResource':
          return await client.readResource({ uri: step.uri });
        case 'listPrompts':
          return (await client.listPrompts()).prompts;
        case 'getPrompt':
          return await client.getPrompt({ name: step.name, arguments: step.arguments });
        default:
          throw unsupported('@modelcontextprotocol/client', step);
      }
    },
    close: () => client.close(),
  };
});
