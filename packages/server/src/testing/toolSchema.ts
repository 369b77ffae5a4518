/** What `toolSchema` needs of a client: its `listTools` (every page, as the SDK's client returns them). */
export interface ToolLister {
  listTools(params?: { cursor?: string }): Promise<{ tools: readonly { name: string; inputSchema: unknown; outputSchema?: unknown }[]; nextCursor?: string }>;
}

/**
 * The input schema (or, with `'output'`, the output schema) a tool is advertised with, as
 * the client received it from `tools/list`; throws naming the tools there are when `name`
 * is not one of them.
 */
export async function toolSchema(client: ToolLister, name: string, which: 'input' | 'output' = 'input'): Promise<Record<string, unknown>> {
  const tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`No tool named '${name}' is listed. The tools are: ${tools.map((t) => t.name).join(', ') || 'none'}.`);
  const schema = which === 'input' ? tool.inputSchema : tool.outputSchema;
  if (schema === undefined) throw new Error(`Tool '${name}' has no output schema (it has no output DTO).`);
  return schema as Record<string, unknown>;
}
