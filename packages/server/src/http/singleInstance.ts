import type { SessionSharing } from './SessionSharing';

/** Sessions shared with no other instance: each lives in this process's (or isolate's) memory alone. */
export const singleInstance: SessionSharing = {
  localStore: 'truth',
  streamIdPrefix: undefined,
  listen: () => () => {},
  create: async () => true,
  // `create` recorded nothing.
  discard: async () => {},
  // Not marked as used here: the session pool does that once the session's transport accepted the request, so neither a foreign caller nor a refused request keeps a session alive.
  find: async (id, request, local) => {
    const session = local.get(id);
    return { session: session?.principal === request.principal ? session : undefined, body: request.body };
  },
  // The session pool has marked the local session, which is the only one.
  used: () => {},
  wire: () => {},
  connected: async () => {},
  refuse: (error) => {
    throw error;
  },
};
