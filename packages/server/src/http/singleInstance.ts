import type { SessionSharing } from './SessionSharing';

/** Sessions shared with no other instance: each lives in this process's memory alone. */
export const singleInstance: SessionSharing = {
  streamIdPrefix: undefined,
  listen: () => () => {},
  create: async () => {},
  find: async (id, request, local) => ({ session: local.touch(id), body: request.body }),
  wire: () => {},
  connected: async () => {},
  refuse: (_res, error) => {
    throw error;
  },
};
