import type { Client } from '@modelcontextprotocol/client';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Class } from '@toolwright/core';

/** An app of `tools` and a connected test client; `close()` ends the session. */
export async function connect(tools: Class[], options: Partial<Parameters<typeof createApp>[0]> = {}): Promise<{ app: App; client: Client; close: () => Promise<void> }> {
  const app = await createApp({ name: 'docs', version: '0.0.0', ...options, tools });
  const client = await createTestClient(app);
  return { app, client, close: () => client.close() };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string | undefined {
  return ((result as { content: { text?: string }[] }).content[0] as { text?: string } | undefined)?.text;
}

/** The message of the error `createApp` stops with, or 'built'. */
export function buildOf(tools: Class[]): Promise<string> {
  return createApp({ name: 'docs', version: '0.0.0', tools }).then(
    () => 'built',
    (error: Error) => error.message,
  );
}
