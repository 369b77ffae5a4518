import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * KEYS: the claim. ARGV: this claim's value (a token, a line break, the holder's channel), lease
 * (ms). Takes the claim if it is free, or if its holder's process is gone: no connection listens
 * on the channel its claim names (Redis drops a dead process's connection at once, long before
 * the lease lapses). 1: taken, 0: held by a live holder.
 */
const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held then
  local channel = string.match(held, '\\n(.+)$')
  if channel and redis.call('PUBSUB', 'NUMSUB', channel)[2] > 0 then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/**
 * KEYS: the claim, the key it lives by. ARGV: this claim's value, lease (ms). Keeps the claim while
 * this holder has it; takes it again if it lapsed meanwhile (Redis was away), no one else took it
 * and the key it lives by is still there (a claim deleted with its session is not brought back). 1: held, 0: lost.
 */
const RENEW = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if holder or redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** KEYS: the claim. ARGV: this claim's value. Gives the claim back, only if this holder still has it. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Claims `key` for one live connection across every instance, for a lease of `leaseMs` renewed
 * every third of it while held, so a crashed holder's claim lapses by itself; sooner, once Redis
 * has dropped the crashed process's connections: `alive` is a channel the claiming process's
 * subscriber listens on for as long as it runs. A claim that is gone (lapsed, or deleted with what
 * it belongs to) is taken back by a renewal only while `livesBy` (the session's record) exists.
 * Resolves to the function that gives it back, or undefined when another connection holds it.
 * `lost` is called when a renewal finds that another connection took the claim, or that it is
 * gone along with `livesBy`. Rejects when Redis does not answer the claim.
 */
export async function claimStream(redis: Redis, key: string, livesBy: string, leaseMs: number, alive: string, lost: () => void): Promise<(() => void) | undefined> {
  const token = `${randomUUID()}\n${alive}`;
  if ((await redis.eval(CLAIM, 1, key, token, leaseMs)) !== 1) return undefined;
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    clearInterval(timer);
    redis.eval(RELEASE, 1, key, token).catch(() => {});
  };
  const timer = setInterval(
    () => {
      redis.eval(RENEW, 2, key, livesBy, token, leaseMs).then(
        (kept) => {
          if (kept !== 0 || !held) return;
          held = false;
          clearInterval(timer);
          lost();
        },
        // Redis away: the claim is renewed (or taken again) once it answers.
        () => {},
      );
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return release;
}
