/** The requests the MCP specification defines (2025-11-25 and 2026-07-28), by who sends them. */
export const protocolMethods: { readonly fromClient: ReadonlySet<string>; readonly fromServer: ReadonlySet<string> } = {
  /** What a client may ask of a server, the tasks extension's (SEP-2663) requests included. */
  fromClient: new Set([
    'initialize',
    'ping',
    'server/discover',
    'subscriptions/listen',
    'tools/list',
    'tools/call',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'resources/subscribe',
    'resources/unsubscribe',
    'prompts/list',
    'prompts/get',
    'completion/complete',
    'logging/setLevel',
    'tasks/get',
    'tasks/result',
    'tasks/list',
    'tasks/cancel',
  ]),
  /** What a server may ask of a client. */
  fromServer: new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']),
};
