// Vercel AI SDK's MCP client (@ai-sdk/mcp): createMCPClient -> tools() -> tool.execute(args, { toolCallId, messages }),
// the path generateText takes when a model calls a tool; resources and prompts through the client's own methods.
// options.discovery: false asks for the 2025 handshake (`protocolVersionDiscovery`), otherwise the client probes 2026-07-28.
// options.apps: declare MCP Apps (`mcpAppClientCapabilities`), as a host that renders views does; its MCP App helpers read the tools and views.
import { createMCPClient, mcpAppClientCapabilities, readMCPAppResource, splitMCPAppTools } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { runPlan, unsupported } from './runPlan.mjs';

await runPlan(async ({ target, options = {} }) => {
  const transport = target.stdio ? new StdioMCPTransport({ command: target.stdio.command, args: target.stdio.args, stderr: 'ignore' }) : { type: 'http', url: target.http.url };
  const client = await createMCPClient({
    transport,
    clientName: 'toolwright-interop',
    ...(options.discovery === false && { protocolVersionDiscovery: false }),
    ...(options.apps && { capabilities: mcpAppClientCapabilities }),
  });
  let calls = 0;
  return {
    async step(step) {
      switch (step.op) {
        case 'listTools': {
          const tools = await client.tools();
          return Object.entries(tools).map(([name, tool]) => ({ name, inputSchema: tool.inputSchema.jsonSchema }));
        }
        case 'callTool': {
          const tools = await client.tools();
          if (!Object.hasOwn(tools, step.name)) throw new Error(`tools() has no '${step.name}'`);
          return await tools[step.name].execute(step.arguments, { toolCallId: `call-${++calls}`, messages: [] });
        }
        case 'splitMcpAppTools': {
          const { modelVisible, appVisible } = splitMCPAppTools(await client.listTools());
          return { modelVisible: modelVisible.tools.map((t) => t.name), appVisible: appVisible.tools.map((t) => t.name) };
        }
        case 'readMcpAppResource':
          return await readMCPAppResource({ client, uri: step.uri });
        case 'callRawTool':
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
          throw unsupported('@ai-sdk/mcp', step);
      }
    },
    close: () => client.close(),
  };
});
