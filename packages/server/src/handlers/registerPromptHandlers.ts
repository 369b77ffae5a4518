import type { PromptResult } from '@toolwright/core';
import type { CompiledPrompt } from '@toolwright/core/internal';
import type { Prompt } from '../sdk/sdk';
import { callerOf } from '../auth/canAccess';
import { createListFilter } from '../auth/createListFilter';
import { guardedList } from '../pipeline/guardedList';
import type { PipelineEnv } from '../pipeline/PipelineEnv';
import { serveMember } from '../pipeline/serveMember';
import type { MemberRef } from '../pipeline/ServedMember';
import type { Catalog } from '../surface/Catalog';
import type { Connection } from '../pipeline/Connection';
import { outcomeError } from './outcomeError';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import { unknownPrompt } from './unknownPrompt';

/** Serves `prompts/list` (cached pages) and `prompts/get` (-32602 for an unknown prompt, one the caller may not use, or bad arguments). */
export function registerPromptHandlers(connection: Connection, catalog: Catalog, env: PipelineEnv): void {
  const { server } = connection;
  const promptsFor = promptFilterOf(catalog);
  const promptRef = (p: Prompt) => {
    const prompt = catalog.prompt(p.name);
    return prompt && refOf(prompt);
  };
  server.setRequestHandler('prompts/list', (request, ctx) => guardedList(promptsFor(catalog.promptsPage(request.params?.cursor), callerOf(ctx)), 'prompts', promptRef, ctx, connection, env));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name } = request.params;
    const prompt = catalog.prompt(name);
    if (!prompt) throw unknownPrompt(name);
    const args = request.params.arguments;
    return serveMember<PromptResult>(
      {
        // Every key written out (no spread): the pipeline reads this object on every call.
        kind: 'prompt',
        member: prompt,
        name: prompt.name,
        unknown: () => unknownPrompt(name),
        method: 'prompts/get',
        args,
        run: async (toolCtx, scope) => {
          const outcome = await prompt.get(args, toolCtx, scope);
          if (!outcome.ok) throw outcomeError(outcome);
          return outcome.value;
        },
        timedOut: (ms) => Promise.reject(new ProtocolError(ErrorCodes.InternalError, `Prompt '${name}' timed out after ${ms} ms.`)),
        failed: () => Promise.reject(new ProtocolError(ErrorCodes.InternalError, `Prompt '${name}' failed with an internal error. The server log has the details.`)),
      },
      ctx,
      connection,
      env,
    );
  });
}

const filters = new WeakMap<Catalog, ReturnType<typeof createListFilter<'prompts', Prompt>>>();

/** The catalog's prompt list filter, made once per app: every connection shares its cached views. */
function promptFilterOf(catalog: Catalog) {
  let made = filters.get(catalog);
  if (!made) filters.set(catalog, (made = createListFilter('prompts', (p: Prompt) => catalog.prompt(p.name)?.access)));
  return made;
}

function refOf(prompt: CompiledPrompt): MemberRef {
  return { kind: 'prompt', member: prompt, name: prompt.name };
}
