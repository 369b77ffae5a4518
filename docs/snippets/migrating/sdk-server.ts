// #region sdk
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export function createServer() {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  const stock = new Map([['apple', 3]]); // a Map, so an item named 'constructor' finds no count
  server.registerTool(
    'check_stock',
    {
      description: 'How many of an item are in stock.',
      inputSchema: { item: z.string().min(1).describe('The item name') },
    },
    async ({ item }) => {
      const count = stock.get(item);
      if (count === undefined) return { content: [{ type: 'text', text: `Unknown item '${item}'.` }], isError: true };
      return { content: [{ type: 'text', text: String(count) }] };
    },
  );
  return server; // one per connection
}
// #endregion sdk
