/**
 * The Lua scripts behind every write: each runs atomically in Redis, in one round trip, so
 * a failure never leaves half a session or an event without its TTL.
 *
 * Keys (after the prefix): `s:<id>` the session hash (`rec` JSON, `principal`, `owner` (the
 * key of its owner's index), `level`), `sub:<id>` its subscribed URIs (a set), `e:<id>` its
 * events (a stream; each entry's `n` is its size in bytes), `st:<id>` its `ctx.session`
 * values (a hash), `sessions` a sorted set of live session ids scored by expiry time,
 * `o:<owner digest>` the same for one owner's sessions, `eb` the event bytes each session
 * holds (field: session id) and in all (field: ''), `eb:<id>` the event bytes of a stream
 * with no session here (an `eventStore` used alone), `gs:<id>` the claim on the session's GET stream (see
 * `claimStream`). Channels: `ended`, `changes`, `ev:<id>`.
 * Scripts name keys they build from the prefix, so one Redis primary (or Sentinel) holds
 * them all; Redis Cluster is not supported. A key of the wrong type (another version's, an
 * operator's edit) is dropped where a script reads it, as if missing (`typed`): it never fails
 * every request of its session, nor a broadcast to every other session.
 */

/** Helpers every script that ends sessions or stores events starts with. */
const LIB = `
local function typed(key, kind)
  local t = redis.call('TYPE', key).ok
  if t ~= kind and t ~= 'none' then redis.call('DEL', key) end
end
-- Drops the session's GET stream claim (gs:<id>) if \`alive\` (the ending instance's channel) holds it
-- or its holder is gone (no connection listens on the channel it names, as CLAIM judges); a
-- live holder's stays: that instance gives it back when it closes the stream.
local function unclaim(key, alive)
  typed(key, 'string')
  local held = redis.call('GET', key)
  if not held then return end
  local channel = string.match(held, '\\n(.+)$')
  if channel and channel ~= alive and redis.call('PUBSUB', 'NUMSUB', channel)[2] > 0 then return end
  redis.call('DEL', key)
end
local function forget(p, sid, alive)
  unclaim(p .. 'gs:' .. sid, alive)
  typed(p .. 's:' .. sid, 'hash')
  local owner = redis.call('HGET', p .. 's:' .. sid, 'owner')
  if owner then redis.call('ZREM', p .. owner, sid) end
  redis.call('DEL', p .. 's:' .. sid, p .. 'e:' .. sid, p .. 'st:' .. sid, p .. 'sub:' .. sid)
  redis.call('ZREM', p .. 'sessions', sid)
  local held = tonumber(redis.call('HGET', p .. 'eb', sid) or '0') or 0
  if held ~= 0 then redis.call('HINCRBY', p .. 'eb', '', -held) end
  redis.call('HDEL', p .. 'eb', sid)
end
local function reap(p, now, limit)
  typed(p .. 'sessions', 'zset')
  local gone = redis.call('ZRANGEBYSCORE', p .. 'sessions', '-inf', now, 'LIMIT', 0, limit)
  for _, sid in ipairs(gone) do
    if redis.call('EXISTS', p .. 's:' .. sid) == 1 then redis.call('ZREM', p .. 'sessions', sid) else forget(p, sid) end
  end
end
local function append(p, sid, stream, json, maxlen, maxBytes, maxTotal, ttl)
  local ekey = p .. 'e:' .. sid
  typed(ekey, 'stream')
  typed(p .. 'eb', 'hash')
  local n = string.len(json)
  local id = redis.call('XADD', ekey, '*', 's', stream, 'm', json, 'n', n)
  redis.call('PEXPIRE', ekey, ttl)
  local recorded = redis.call('EXISTS', p .. 's:' .. sid) == 1
  local held; local total = 0
  if recorded then
    held = redis.call('HINCRBY', p .. 'eb', sid, n)
    total = redis.call('HINCRBY', p .. 'eb', '', n)
    if redis.call('PTTL', p .. 'eb') < ttl then redis.call('PEXPIRE', p .. 'eb', ttl) end
  else
    held = redis.call('INCRBY', p .. 'eb:' .. sid, n)
    redis.call('PEXPIRE', p .. 'eb:' .. sid, ttl)
  end
  local count = redis.call('XLEN', ekey)
  while count > 0 and (count > maxlen or held > maxBytes or total > maxTotal) do
    local first = redis.call('XRANGE', ekey, '-', '+', 'COUNT', 1)[1]
    local size = 0
    for i = 1, #first[2], 2 do if first[2][i] == 'n' then size = tonumber(first[2][i + 1]) or 0 end end
    -- A size another writer left unreadable (not a whole number of bytes) counts as none.
    if size < 0 or size > 2^53 or size ~= math.floor(size) then size = 0 end
    redis.call('XDEL', ekey, first[1])
    count = count - 1
    if size > 0 then
      held = held - size
      if recorded then
        redis.call('HINCRBY', p .. 'eb', sid, 0 - size)
        total = redis.call('HINCRBY', p .. 'eb', '', 0 - size)
      else
        redis.call('DECRBY', p .. 'eb:' .. sid, size)
      end
    end
  end
  return id
end
`;

/**
 * KEYS: sessions, s:<id>, o:<owner>. ARGV: now, ttl, max, prefix, id, rec, max per owner, principal, owner key (o:<owner>, unprefixed).
 * Ends the owner's least recently used sessions past its share (never another owner's); then
 * refuses (-1) if the cluster is full. Returns how many sessions were evicted, or -1.
 */
export const CREATE = `${LIB}
local now = tonumber(ARGV[1]); local ttl = tonumber(ARGV[2]); local max = tonumber(ARGV[3]); local p = ARGV[4]; local perOwner = tonumber(ARGV[7])
reap(p, now, 100000)
typed(KEYS[3], 'zset')
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local evicted = 0
while redis.call('ZCARD', KEYS[3]) >= perOwner do
  local victim = redis.call('ZPOPMIN', KEYS[3])
  if #victim == 0 then break end
  forget(p, victim[1])
  redis.call('PUBLISH', p .. 'ended', victim[1])
  evicted = evicted + 1
end
if redis.call('ZCARD', KEYS[1]) >= max then return -1 end
redis.call('HSET', KEYS[2], 'rec', ARGV[6], 'principal', ARGV[8], 'owner', ARGV[9])
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[5])
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
redis.call('ZADD', KEYS[3], now + ttl, ARGV[5])
if redis.call('PTTL', KEYS[3]) < ttl then redis.call('PEXPIRE', KEYS[3], ttl) end
return evicted
`;

/**
 * KEYS: s:<id>. ARGV: id, principal, prefix.
 * What a request is checked against before it is served: TOUCH's check and answer, with no
 * expiry pushed back (TOUCH renews the session once it accepted the request). Returns
 * [rec, level], 0 for another principal's session, or nil when it is gone (its leftovers dropped, as TOUCH does).
 */
export const PEEK = `${LIB}
typed(KEYS[1], 'hash')
local found = redis.call('HMGET', KEYS[1], 'principal', 'rec', 'level')
if not found[1] then
  if redis.call('EXISTS', KEYS[1]) == 0 then forget(ARGV[3], ARGV[1]) end
  return false
end
if found[1] ~= ARGV[2] then return 0 end
return { found[2], found[3] }
`;

/**
 * KEYS: s:<id>, sessions, e:<id>, st:<id>, sub:<id>. ARGV: now, ttl, id, principal, prefix.
 * Checks the principal first: another principal's request changes nothing (0). Returns
 * [rec, level] with the expiry pushed back, 0 for another principal's session, or nil when it is gone.
 */
export const TOUCH = `${LIB}
local now = tonumber(ARGV[1]); local ttl = tonumber(ARGV[2]); local p = ARGV[5]
typed(KEYS[1], 'hash')
local principal = redis.call('HGET', KEYS[1], 'principal')
if not principal then
  if redis.call('EXISTS', KEYS[1]) == 0 then forget(p, ARGV[3]) end
  return false
end
if principal ~= ARGV[4] then return 0 end
typed(KEYS[2], 'zset'); typed(KEYS[3], 'stream'); typed(KEYS[4], 'hash'); typed(KEYS[5], 'set')
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('PEXPIRE', KEYS[4], ttl)
redis.call('PEXPIRE', KEYS[5], ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[3])
if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
if redis.call('PTTL', p .. 'eb') < ttl then redis.call('PEXPIRE', p .. 'eb', ttl) end
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner then
  typed(p .. owner, 'zset')
  redis.call('ZADD', p .. owner, now + ttl, ARGV[3])
  if redis.call('PTTL', p .. owner) < ttl then redis.call('PEXPIRE', p .. owner, ttl) end
end
return redis.call('HMGET', KEYS[1], 'rec', 'level')
`;

/**
 * KEYS: s:<id>, sub:<id>. ARGV: 'level' | 'subscribe' | 'unsubscribe', value, most subscriptions.
 * Returns 0 when the session is gone, -1 when a new subscription would pass the most, else 1.
 */
export const UPDATE = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return 0 end
if ARGV[1] == 'level' then
  redis.call('HSET', KEYS[1], 'level', ARGV[2])
  return 1
end
if ARGV[1] == 'unsubscribe' then
  redis.call('SREM', KEYS[2], ARGV[2])
  return 1
end
if redis.call('SISMEMBER', KEYS[2], ARGV[2]) == 0 and redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return -1 end
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
`;

/** KEYS: s:<id>. ARGV: id, channel (ended), prefix, the ending instance's liveness channel (its GET stream claim goes too). */
export const END = `${LIB}
forget(ARGV[3], ARGV[1], ARGV[4])
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1
`;

/**
 * KEYS: s:<id>. ARGV: maxlen, default ttl, stream id, message JSON, origin, channel (ev:<id>), GET stream id, prefix, session id, max bytes, max total bytes, now.
 * The events live as long as their session (its TTL), or the default TTL without one; past
 * the count, the session's bytes or the total bytes the oldest of the session's own fall out
 * (the new one too, if it alone is too big). Events of the GET stream are also published, for
 * the instance holding it (POST streams are not watched).
 * Returns the event id (the stream entry id: unique and ordered across instances).
 */
export const STORE_EVENT = `${LIB}
local p = ARGV[8]
reap(p, tonumber(ARGV[12]), 10)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = tonumber(ARGV[2]) end
local id = append(p, ARGV[9], ARGV[3], ARGV[4], tonumber(ARGV[1]), tonumber(ARGV[10]), tonumber(ARGV[11]), ttl)
if ARGV[3] == ARGV[7] then redis.call('PUBLISH', ARGV[6], ARGV[5] .. '\\n' .. id .. '\\n' .. ARGV[3] .. '\\n' .. ARGV[4]) end
return id
`;

/**
 * KEYS: sessions. ARGV: now, prefix, message JSON, uri ('' for every session), maxlen, origin, change JSON, GET stream id, max bytes, max total bytes.
 * Appends the notification to the GET stream of every live session (subscribed to uri, if
 * one is given: one set lookup each), tells the instance holding that stream, and tells
 * every instance of the change. Returns how many sessions were told.
 */
export const BROADCAST = `${LIB}
local now = tonumber(ARGV[1]); local p = ARGV[2]; local uri = ARGV[4]
reap(p, now, 100000)
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local told = 0
for _, sid in ipairs(ids) do
  local skey = p .. 's:' .. sid
  local ok
  if uri == '' then ok = redis.call('EXISTS', skey) == 1 else
    typed(p .. 'sub:' .. sid, 'set')
    ok = redis.call('SISMEMBER', p .. 'sub:' .. sid, uri) == 1
  end
  if ok then
    local ttl = redis.call('PTTL', skey)
    if ttl > 0 then
      local id = append(p, sid, ARGV[8], ARGV[3], tonumber(ARGV[5]), tonumber(ARGV[9]), tonumber(ARGV[10]), ttl)
      redis.call('PUBLISH', p .. 'ev:' .. sid, 'cluster\\n' .. id .. '\\n' .. ARGV[8] .. '\\n' .. ARGV[3])
      told = told + 1
    end
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
