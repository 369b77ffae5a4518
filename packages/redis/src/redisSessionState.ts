import { ToolwrightError } from '@toolwright/core';
import type { Cluster } from '@toolwright/server/http';
import type { ClusterConnection } from './ClusterConnection';
import { parseJson } from './parseJson';
import { runCommand } from './runCommand';

/** `ctx.session` of session `sessionId`: a hash beside the session's, ended with it. */
export function redisSessionState({ redis, keys }: ClusterConnection, sessionId: string): ReturnType<Cluster['sessionState']> {
  const key = keys.state(sessionId);
  const write = async (field: string, json: string) => {
    const changed = await runCommand(() => redis.twSetState(key, keys.session(sessionId), field, json));
    if (changed === -1) throw new ToolwrightError(`ctx.session: session ${sessionId} has ended or expired (in Redis), so its state cannot change; the client starts a new session.`);
    return changed;
  };
  return {
    async get<T>(field: string) {
      const json = await runCommand(() => redis.hget(key, field));
      if (json === null) return undefined;
      const value = parseJson(json);
      if (value === undefined) throw new ToolwrightError(`ctx.session: the value of '${field.slice(0, 100)}' in Redis is not valid JSON (written by another version?); set it again.`);
      return value as T;
    },
    async set(field, value) {
      await write(field, value === undefined ? '' : JSON.stringify(value));
    },
    delete: async (field) => (await write(field, '')) > 0,
  };
}
