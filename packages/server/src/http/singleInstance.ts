import type { SessionSharing } from './SessionSharing';

/** Sessions shared with no other instance: each lives in this process's (or isolate's) memory alone. */
export const singleInstance: SessionSharing = {
  localStore: 'truth',
  streamIdPrefix: undefined,
  listen: () => () => {},
  create: async () => true,
  // The principal is checked before the session is marked as used: a foreign caller keeps no session alive.
  find: async (id, request, local) => ({ session: local.get(id)?.principal === request.principal ? local.touch(id) : undefined, body: request.body }),
  wire: () => {},
  connected: async () => {},
  refuse: (error) => {
    throw error;
  },
};
