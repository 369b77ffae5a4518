/**
 * The Lua scripts behind every write: each runs atomically in Redis, in one round trip, so
 * a failure never leaves half a session or an event without its TTL.
 *
 * Keys (after the prefix): `s:<id>` the session hash (`rec` JSON, `level`, `subs` as
 * "\n"-delimited URIs), `e:<id>` its events (a stream), `st:<id>` its `ctx.session` values (a hash), `sessions` a sorted set of live
 * session ids scored by expiry time. Channels: `ended`, `changes`, `ev:<id>`.
 * Scripts name keys they build from the prefix, so one Redis primary (or Sentinel) holds
 * them all; Redis Cluster is not supported.
 */

/** KEYS: sessions, s:<id>. ARGV: now, ttl, max, prefix, id, rec. Returns how many sessions were evicted. */
export const CREATE = `
local now = tonumber(ARGV[1]); local ttl = tonumber(ARGV[2]); local max = tonumber(ARGV[3]); local p = ARGV[4]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local evicted = 0
while redis.call('ZCARD', KEYS[1]) >= max do
  local victim = redis.call('ZPOPMIN', KEYS[1])
  if #victim == 0 then break end
  redis.call('DEL', p .. 's:' .. victim[1], p .. 'e:' .. victim[1], p .. 'st:' .. victim[1])
  redis.call('PUBLISH', p .. 'ended', victim[1])
  evicted = evicted + 1
end
redis.call('HSET', KEYS[2], 'rec', ARGV[6], 'subs', '\\n')
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[5])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return evicted
`;

/** KEYS: s:<id>, sessions, e:<id>, st:<id>. ARGV: now, ttl, id. Returns [rec, level, subs], or nil when the session is gone. */
export const TOUCH = `
local ttl = tonumber(ARGV[2])
if redis.call('PEXPIRE', KEYS[1], ttl) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[3])
  return false
end
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('PEXPIRE', KEYS[4], ttl)
redis.call('ZADD', KEYS[2], tonumber(ARGV[1]) + ttl, ARGV[3])
if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
return redis.call('HMGET', KEYS[1], 'rec', 'level', 'subs')
`;

/** KEYS: s:<id>. ARGV: 'level' | 'subscribe' | 'unsubscribe', value. Returns 0 when the session is gone. */
export const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == 'level' then
  redis.call('HSET', KEYS[1], 'level', ARGV[2])
  return 1
end
local subs = redis.call('HGET', KEYS[1], 'subs') or '\\n'
local item = '\\n' .. ARGV[2] .. '\\n'
local at = string.find(subs, item, 1, true)
if ARGV[1] == 'subscribe' and not at then subs = subs .. ARGV[2] .. '\\n' end
if ARGV[1] == 'unsubscribe' and at then subs = string.sub(subs, 1, at) .. string.sub(subs, at + #item) end
redis.call('HSET', KEYS[1], 'subs', subs)
return 1
`;

/** KEYS: s:<id>, e:<id>, sessions, st:<id>. ARGV: id, channel (ended). */
export const END = `
redis.call('DEL', KEYS[1], KEYS[2], KEYS[4])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1
`;

/**
 * KEYS: e:<id>, s:<id>. ARGV: maxlen, default ttl, stream id, message JSON, origin, channel (ev:<id>), GET stream id.
 * The events live as long as their session (its TTL), or the default TTL without one. Events
 * of the GET stream are also published, for the instance holding it (POST streams are not watched).
 * Returns the event id (the stream entry id: unique and ordered across instances).
 */
export const STORE_EVENT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 's', ARGV[3], 'm', ARGV[4])
local ttl = redis.call('PTTL', KEYS[2])
if ttl < 0 then ttl = tonumber(ARGV[2]) end
redis.call('PEXPIRE', KEYS[1], ttl)
if ARGV[3] == ARGV[7] then redis.call('PUBLISH', ARGV[6], ARGV[5] .. '\\n' .. id .. '\\n' .. ARGV[3] .. '\\n' .. ARGV[4]) end
return id
`;

/**
 * KEYS: sessions. ARGV: now, prefix, message JSON, uri ('' for every session), maxlen, origin, change JSON, GET stream id.
 * Appends the notification to the GET stream of every live session (subscribed to uri,
 * if one is given), tells the instance holding that stream, and tells every instance of the
 * change. Returns how many sessions were told.
 */
export const BROADCAST = `
local now = tonumber(ARGV[1]); local p = ARGV[2]; local uri = ARGV[4]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local told = 0
for _, sid in ipairs(ids) do
  local skey = p .. 's:' .. sid
  local ok
  if uri == '' then
    ok = redis.call('EXISTS', skey) == 1
  else
    local subs = redis.call('HGET', skey, 'subs')
    ok = subs and string.find(subs, '\\n' .. uri .. '\\n', 1, true)
  end
  if ok then
    local ekey = p .. 'e:' .. sid
    local id = redis.call('XADD', ekey, 'MAXLEN', '~', ARGV[5], '*', 's', ARGV[8], 'm', ARGV[3])
    local ttl = redis.call('PTTL', skey)
    if ttl > 0 then redis.call('PEXPIRE', ekey, ttl) end
    redis.call('PUBLISH', p .. 'ev:' .. sid, 'cluster\\n' .. id .. '\\n' .. ARGV[8] .. '\\n' .. ARGV[3])
    told = told + 1
  end
end
redis.call('PUBLISH', p .. 'changes', ARGV[6] .. '\\n' .. ARGV[7])
return told
`;

/** KEYS: st:<id>, s:<id>. ARGV: key, value JSON ('' deletes). Returns -1 when the session is gone, else how many fields changed. */
export const SET_STATE = `
local ttl = redis.call('PTTL', KEYS[2])
if ttl < 0 then return -1 end
if ARGV[2] == '' then return redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`;
