// LangChain's MCP adapters (@langchain/mcp-adapters): MultiServerMCPClient -> getTools() -> tool.invoke(args), the
// DynamicStructuredTool an agent hands the model; resources through listResources() / readResource() (no prompt API).
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { runPlan, unsupported } from './runPlan.mjs';

await runPlan(async ({ target }) => {
  const connection = target.stdio ? { transport: 'stdio', command: target.stdio.command, args: target.stdio.args, stderr: 'ignore' } : { transport: 'http', url: target.http.url };
  const client = new MultiServerMCPClient({ mcpServers: { weather: connection }, throwOnLoadError: true, useStandardContentBlocks: false });
  let toolsPromise;
  const tools = () => (toolsPromise ??= client.getTools());
  return {
    async step(step) {
      switch (step.op) {
        case 'listTools':
          return (await tools()).map((tool) => ({ name: tool.name, schema: tool.schema }));
        case 'callTool': {
          const tool = (await tools()).find((t) => t.name === step.name);
          if (!tool) throw new Error(`getTools() has no '${step.name}'`);
          return await tool.invoke(step.arguments);
        }
        case 'listResources':
          return (await client.listResources('weather')).weather;
        case 'readResource':
          return await client.readResource('weather', step.uri);
        default:
          throw unsupported('@langchain/mcp-adapters', step);
      }
    },
    close: () => client.close(),
  };
});
