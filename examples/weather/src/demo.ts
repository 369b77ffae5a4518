/**
 * A client session against the weather server, for the README's quick start:
 * starts `dist/server.js` as a child process over stdio, lists the tools and makes a few
 * calls, valid and invalid, printing what an MCP client sees. The client is the SDK's
 * (`@modelcontextprotocol/client`, a dev dependency: the server itself never loads it).
 */
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { join } from 'node:path';

const calls: { title: string; name: string; arguments?: Record<string, unknown> }[] = [
  { title: 'Weather in Tokyo', name: 'get_weather', arguments: { location: 'Tokyo' } },
  { title: 'Arithmetic', name: 'calculate', arguments: { operation: 'divide', a: 10, b: 4 } },
  { title: 'A tool error: division by zero', name: 'calculate', arguments: { operation: 'divide', a: 1, b: 0 } },
  { title: 'Bad arguments: unknown operation, missing b', name: 'calculate', arguments: { operation: 'pow', a: 2 } },
  { title: 'Nested input (a DTO)', name: 'search_notes', arguments: { query: 'forecast', filters: { tags: ['weather'] } } },
  { title: 'Bad nested input', name: 'search_notes', arguments: { query: '', filters: { tags: 'weather' }, limit: 500 } },
  { title: 'An unknown tool (a protocol error)', name: 'get_stock_price', arguments: {} },
];

async function main(): Promise<void> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(__dirname, 'server.js')], stderr: 'inherit' });
  const client = new Client({ name: 'weather-demo', version: '1.0.0' });
  await client.connect(transport);
  const info = client.getServerVersion();
  console.log(`Connected to ${info?.title ?? info?.name} ${info?.version} over stdio.\n`);

  const { tools } = await client.listTools();
  console.log(`tools/list -> ${tools.length} tools`);
  for (const tool of tools) {
    const props = Object.keys(tool.inputSchema.properties ?? {});
    const required = new Set(tool.inputSchema.required ?? []);
    const params = props.map((p) => (required.has(p) ? p : `${p}?`)).join(', ');
    console.log(`  ${tool.name}(${params})${tool.outputSchema ? ' -> structured' : ''}\n    ${tool.description}`);
  }

  for (const call of calls) {
    console.log(`\n# ${call.title}\n> tools/call ${call.name} ${JSON.stringify(call.arguments ?? {})}`);
    try {
      const result = await client.callTool({ name: call.name, arguments: call.arguments });
      const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join('\n');
      console.log(`${result.isError ? '< isError: true\n' : ''}${indent(text)}`);
      if (result.structuredContent) console.log(`< structuredContent: ${JSON.stringify(result.structuredContent)}`);
    } catch (error) {
      console.log(error instanceof ProtocolError ? `< JSON-RPC error ${error.code}: ${error.message}` : `< failed: ${(error as Error).message}`);
    }
  }
  await client.close();
}

function indent(text: string): string {
  return text.split('\n').map((l) => `< ${l}`).join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
