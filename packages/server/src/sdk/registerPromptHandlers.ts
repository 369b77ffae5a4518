import type { MemberOutcome } from '@toolwright/core';
import type { Prompt } from '@modelcontextprotocol/server';
import { accessDenial, callerOf, canAccess } from '../auth/canAccess';
import { createListFilter } from '../auth/createListFilter';
import type { Catalog } from '../surface/Catalog';
import type { Connection } from './Connection';
import { createToolContext, type ContextEnv } from './createToolContext';
import { outcomeError } from './outcomeError';
import { ErrorCodes, ProtocolError } from './ProtocolError';
import { runWithRounds } from './runWithRounds';

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
    const args = request.params.arguments;
    if (!prompt.usesContext) return served(await prompt.get(args, undefined));
    return runWithRounds(connection, ctx, env.requestState, 'prompts/get', name, args, async (round) => {
      const open = createToolContext(prompt.name, ctx, connection, env, ctx.mcpReq.signal, round);
      return served(await prompt.get(args, open.ctx).finally(open.close));
    });
  });
}

/** The prompt's messages, or its failure as a JSON-RPC error. */
function served<T>(outcome: MemberOutcome<T>): T {
  if (!outcome.ok) throw outcomeError(outcome);
  return outcome.value;
}
