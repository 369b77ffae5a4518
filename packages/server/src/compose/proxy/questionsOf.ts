import type { ClientCapabilities } from '../../sdk/proxyClient';

/** Every question a client can answer: declared by the proxy's own session and by sessionless callers' sessions. */
export const ALL_QUESTIONS: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** The questions a downstream client can answer, declared to the upstream as its own. */
export function questionsOf(capabilities: Readonly<Record<string, unknown>>): ClientCapabilities {
  const out: Record<string, unknown> = {};
  for (const key of ['elicitation', 'sampling', 'roots']) if (Object.hasOwn(capabilities, key)) out[key] = capabilities[key];
  return out as ClientCapabilities;
}
