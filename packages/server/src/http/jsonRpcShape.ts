type Message = { method?: unknown; id?: unknown; params?: { name?: unknown; protocolVersion?: unknown } };

/** The first message of a POST body (a single message or a batch). */
export function firstMessage(body: unknown): Message | undefined {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null ? (first as Message) : undefined;
}

export function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === 'object' && m !== null && (m as Message).method === 'initialize' && 'id' in m);
}

/** The tool a single `tools/call` body names, if it is one. */
export function calledTool(body: unknown): string | undefined {
  if (Array.isArray(body)) return undefined;
  const message = firstMessage(body);
  return message?.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : undefined;
}
