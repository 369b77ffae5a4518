import { mayUse } from '../pipeline/mayUse';
import type { PipelineEnv } from '../pipeline/PipelineEnv';
import type { Catalog } from '../surface/Catalog';
import type { Connection } from '../pipeline/Connection';
import { outcomeError } from './outcomeError';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import { unknownPrompt } from './unknownPrompt';
import { echoedName } from './echoedName';
import { memberTimeoutOf } from '../pipeline/memberTimeoutOf';
import { withTimeout } from '../pipeline/withTimeout';
import type { MemberRef } from '../pipeline/ServedMember';

/**
 * Serves `completion/complete` for prompt arguments and resource-template variables.
 * An unknown prompt or template is -32602, and so is one the caller may not use (its access
 * rules or guards), with the same message; a static resource (nothing to complete) and an
 * argument without a provider complete to nothing. A provider still running when the member's
 * timeout (its own, else the app's `timeoutMs`) passes is answered with -32603, as a prompt get is;
 * the provider's `signal` is aborted then, and when the client cancels or the connection closes.
 */
export function registerCompletionHandler(connection: Connection, catalog: Catalog, env: PipelineEnv): void {
  connection.server.setRequestHandler('completion/complete', async (request, ctx) => {
    const { ref, argument, context } = request.params;
    let completers;
    let owner: MemberRef;
    let what: string;
    if (ref.type === 'ref/prompt') {
      const prompt = catalog.prompt(ref.name);
      // A prompt the caller may not use (its rules or guards) is completed like one that does not exist.
      if (!prompt || !(await mayUse({ kind: 'prompt', member: prompt, name: prompt.name }, ctx, connection, env))) throw unknownPrompt(ref.name);
      completers = prompt.completers;
      owner = { kind: 'prompt', member: prompt, name: prompt.name };
      what = `argument '${echoedName(argument.name)}' of prompt '${prompt.name}'`;
    } else {
      const found = catalog.template(ref.uri);
      const template = found && (await mayUse({ kind: 'resource', member: found, name: found.uriTemplate }, ctx, connection, env)) ? found : undefined;
      if (!template) {
        // A static resource has no variables: nothing to complete (when the caller may use it).
        const resource = catalog.resource(ref.uri);
        if (resource && (await mayUse({ kind: 'resource', member: resource, name: resource.uri }, ctx, connection, env))) return { completion: { values: [] } };
        throw new ProtocolError(ErrorCodes.InvalidParams, `Unknown resource template '${echoedName(ref.uri)}'. Call resources/templates/list to see the available templates.`);
      }
      completers = template.completers;
      owner = { kind: 'resource', member: template, name: template.uriTemplate };
      what = `variable '${echoedName(argument.name)}' of resource template '${template.uriTemplate}'`;
    }
    // The argument's name comes from the wire: only the member's own completers count.
    const complete = Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
    if (!complete) return { completion: { values: [] } };
    const timeoutMs = memberTimeoutOf(owner, env);
    const outcome = await withTimeout(
      timeoutMs,
      ctx.mcpReq.signal,
      // The signal ends with the request or at the timeout, so the provider can stop its lookup;
      // what it returns once stopped counts for nothing: the timeout's answer (or none, on cancel) stands.
      (signal) => complete(argument.value, { arguments: context?.arguments ?? {}, signal }).then((outcome) => (signal.aborted ? unanswered() : outcome)),
      () => Promise.reject(new ProtocolError(ErrorCodes.InternalError, `Completing ${what} timed out after ${timeoutMs} ms.`)),
    );
    if (!outcome.ok) throw outcomeError(outcome);
    return { completion: outcome.value };
  });
}

/**
 * What a provider stopped by its signal leaves the wait with: a promise that never settles, so the
 * end of the request decides the answer. A new one each time: one kept for good would keep every
 * wait that adopted it.
 */
function unanswered(): Promise<never> {
  return new Promise<never>(() => undefined);
}
