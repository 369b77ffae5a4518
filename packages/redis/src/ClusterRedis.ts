import type { Redis } from 'ioredis';
import { BROADCAST, CREATE, END, PEEK, SET_STATE, STORE_EVENT, TOUCH, UPDATE } from './scripts';

/** The cluster's command connection with its scripts (see `scripts.ts` for what each does and returns). */
export interface ClusterRedis extends Redis {
  twCreate(
    sessions: string,
    session: string,
    owner: string,
    now: number,
    ttl: number,
    max: number,
    prefix: string,
    id: string,
    rec: string,
    perOwner: number,
    principal: string,
    ownerKey: string,
  ): Promise<number>;
  twPeek(session: string, id: string, principal: string, prefix: string): Promise<[string | null, string | null] | 0 | null>;
  twTouch(
    session: string,
    sessions: string,
    events: string,
    state: string,
    subs: string,
    now: number,
    ttl: number,
    id: string,
    principal: string,
    prefix: string,
  ): Promise<[string | null, string | null] | 0 | null>;
  twUpdate(session: string, subs: string, kind: string, value: string, maxSubs: number): Promise<number>;
  twEnd(session: string, id: string, channel: string, prefix: string, alive: string): Promise<number>;
  twStoreEvent(
    session: string,
    maxlen: number,
    ttl: number,
    streamId: string,
    json: string,
    origin: string,
    channel: string,
    getStream: string,
    prefix: string,
    sessionId: string,
    maxBytes: number,
    maxTotal: number,
    now: number,
  ): Promise<string>;
  twSetState(state: string, session: string, key: string, json: string): Promise<number>;
  twBroadcast(
    sessions: string,
    now: number,
    prefix: string,
    json: string,
    uri: string,
    maxlen: number,
    origin: string,
    change: string,
    getStream: string,
    maxBytes: number,
    maxTotal: number,
  ): Promise<number>;
}

/** Defines the cluster's scripts on `redis` (ioredis loads each once per connection, then runs it by its hash). */
export function withClusterScripts(redis: Redis): ClusterRedis {
  redis.defineCommand('twCreate', { numberOfKeys: 3, lua: CREATE });
  redis.defineCommand('twPeek', { numberOfKeys: 1, lua: PEEK });
  redis.defineCommand('twTouch', { numberOfKeys: 5, lua: TOUCH });
  redis.defineCommand('twSetState', { numberOfKeys: 2, lua: SET_STATE });
  redis.defineCommand('twUpdate', { numberOfKeys: 2, lua: UPDATE });
  redis.defineCommand('twEnd', { numberOfKeys: 1, lua: END });
  redis.defineCommand('twStoreEvent', { numberOfKeys: 1, lua: STORE_EVENT });
  redis.defineCommand('twBroadcast', { numberOfKeys: 1, lua: BROADCAST });
  return redis as ClusterRedis;
}
