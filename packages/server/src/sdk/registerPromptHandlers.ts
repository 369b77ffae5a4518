import type { Prompt } from '@modelcontextprotocol/server';
import { accessDenial, callerOf, canAccess } from '../auth/canAccess';
import { createListFilter } from '../auth/createListFilter';
import type { Catalog } from '../surface/Catalog';
import type { Connection } from './Connection';
import { createToolContext, type ContextEnv } from './createToolContext';
import { outcomeError } from './outcomeError';
import { ErrorCodes, ProtocolError } from './ProtocolError';

/** Serves `prompts/list` (cached pages) and `prompts/get` (-32602 for an unknown prompt or bad arguments). */
export function registerPromptHandlers(connection: Connection, catalog: Catalog, env: ContextEnv): void {
  const { server } = connection;
  const promptsFor = createListFilter('prompts', (p: Prompt) => catalog.prompt(p.name)?.access);
  server.setRequestHandler('prompts/list', (request, ctx) => promptsFor(catalog.promptsPage(request.params?.cursor), callerOf(ctx)));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name } = request.params;
    const prompt = catalog.prompt(name);
    if (!prompt) throw new ProtocolError(ErrorCodes.InvalidParams, `Unknown prompt '${name}'. Call prompts/list to see the available prompts.`);
    const caller = callerOf(ctx);
    if (prompt.access && !canAccess(prompt.access, caller)) throw new ProtocolError(ErrorCodes.InvalidParams, accessDenial(`Prompt '${name}'`, prompt.access, caller));
    const open = prompt.usesContext ? createToolContext(prompt.name, ctx, connection, env) : undefined;
    const outcome = await prompt.get(request.params.arguments, open?.ctx).finally(() => open?.close());
    if (!outcome.ok) throw outcomeError(outcome);
    return outcome.value;
  });
}
