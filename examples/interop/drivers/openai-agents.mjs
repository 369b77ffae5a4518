// OpenAI Agents SDK (@openai/agents): MCPServerStdio / MCPServerStreamableHttp -> connect() -> listTools() / callTool(),
// and for the bad calls also the function tool an Agent hands the model (getAllMcpTools -> tool.invoke), so the text the
// model would read is recorded too. Resources through listResources() / readResource(); it has no prompt API.
import { MCPServerStdio, MCPServerStreamableHttp, RunContext, getAllMcpTools } from '@openai/agents';
import { runPlan, unsupported } from './runPlan.mjs';

await runPlan(async ({ target }) => {
  const server = target.stdio
    ? new MCPServerStdio({ name: 'weather', command: target.stdio.command, args: target.stdio.args })
    : new MCPServerStreamableHttp({ name: 'weather', url: target.http.url });
  await server.connect();
  return {
    async step(step) {
      switch (step.op) {
        case 'listTools':
          return (await server.listTools()).map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema }));
        case 'callTool': {
          // callToolResult: the whole result (isError, structuredContent); callTool: the content the SDK keeps;
          // the function tool: the string an Agent passes on to the model.
          const result = await server.callToolResult(step.name, step.arguments);
          const content = await server.callTool(step.name, step.arguments);
          const tools = await getAllMcpTools({ mcpServers: [server], runContext: new RunContext({}), convertSchemasToStrict: false });
          const tool = tools.find((t) => t.name === step.name);
          const forModel = tool ? await tool.invoke(new RunContext({}), JSON.stringify(step.arguments)) : undefined;
          return { result, content, forModel };
        }
        case 'listResources':
          return (await server.listResources()).resources;
        case 'readResource':
          return await server.readResource(step.uri);
        default:
          throw unsupported('@openai/agents', step);
      }
    },
    close: () => server.close(),
  };
});
