// #region listen
import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { NoteTools } from './notes.tools';

export async function main() {
  const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NoteTools] });
  const listener = await app.listen({ transport: 'http', port: 3000 }); // 127.0.0.1:3000/mcp
  console.error(`MCP endpoint: ${listener.url}`);
  return listener; // listener.close() shuts down gracefully
}
// #endregion listen
