// #region listen
import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { NoteTools } from './notes.tools';

async function main() {
  const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NoteTools] });
  const port = Number(process.env.PORT ?? 3000);
  const listener = await app.listen({ transport: 'http', port }); // http://127.0.0.1:3000/mcp
  console.error(`MCP endpoint: ${listener.url}`); // listener.close() shuts down gracefully
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
// #endregion listen
