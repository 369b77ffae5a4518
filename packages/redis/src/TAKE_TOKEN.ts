/**
 * Takes one token from a bucket in one step, so no two calls spend the same token.
 * KEYS[1] the bucket (a hash: `tokens`, `at` = ms on the Redis server's clock, the one clock
 * every instance shares). ARGV: capacity, tokens refilled per ms, the longest TTL in ms (0: none).
 * A missing bucket starts full. When a whole token is there, one is spent and the bucket
 * expires when it would be full again (dropping it then changes nothing). Returns the tokens
 * the bucket held before spending, as a string (Redis would truncate a Lua number).
 */
export const TAKE_TOKEN = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local maxTtl = tonumber(ARGV[3])
if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then redis.call('DEL', KEYS[1]) end
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = capacity
local heldTokens, heldAt = tonumber(held[1]), tonumber(held[2])
if heldTokens and heldAt then
  tokens = math.min(capacity, heldTokens + math.max(0, now - heldAt) * perMs)
end
if tokens >= 1 then
  local left = tokens - 1
  local ttl = math.ceil((capacity - left) / perMs)
  if maxTtl > 0 and ttl > maxTtl then ttl = maxTtl end
  if ttl < 1 then ttl = 1 end
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', left), 'at', string.format('%.17g', now))
  redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
end
return string.format('%.17g', tokens)
`;
