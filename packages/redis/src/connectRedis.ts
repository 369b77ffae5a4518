import { ConfigError } from '@toolwright/core';
import type { Redis } from 'ioredis';

/** Redis's answers that mean the credentials or the user's ACL, not the network. */
const REFUSED = /^(WRONGPASS|NOAUTH|NOPERM)\b/;

/**
 * Connects the command connection and the subscriber (both made with `lazyConnect`) to Redis at
 * `url`, then checks that the user may use the prefix's keys and channels. On failure closes
 * both and throws an error that says why in words an operator can act on: the credentials or
 * the ACL refused (WRONGPASS, NOAUTH, NOPERM), or Redis unreachable with the network's or TLS's
 * reason (ioredis itself only says "Connection is closed"). The URL is shown without its
 * password, and no secret in `secrets` (the URL's password, `redis.password`) appears in it.
 */
export async function connectRedis(command: Redis, subscriber: Redis, { url, prefix, secrets = [] }: { url: string; prefix: string; secrets?: readonly (string | undefined)[] }): Promise<void> {
  const seen: Error[] = [];
  const note = (error: Error) => void seen.push(error);
  const connections = [command, subscriber];
  for (const connection of connections) connection.on('error', note);
  try {
    await Promise.all(connections.map((connection) => connection.connect()));
    // A user whose ACL leaves out the prefix gets NOPERM here, not on the first request.
    await command.exists(`${prefix}sessions`);
    await subscriber.subscribe(`${prefix}ended`);
    await subscriber.unsubscribe(`${prefix}ended`);
  } catch (error) {
    for (const connection of connections) {
      // ioredis listens once for a stream's error: a TLS stream that failed its handshake errs again as it closes, which would crash the process.
      connection.stream?.on('error', () => {});
      connection.disconnect();
    }
    const where = maskUrl(url);
    const clean = (message: string) => [...secrets, ...passwordsOf(url)].reduce<string>((text, secret) => (secret ? text.split(secret).join('***') : text), message);
    const refused = [...seen, error as Error].find((e) => REFUSED.test(e?.message ?? ''));
    if (refused)
      throw new ConfigError(
        `@toolwright/redis: Redis at ${where} refused to let this client in (${clean(refused.message)}). Check the user and password (in the url, redis://user:password@host:port, or as redis.username and redis.password) and that user's ACL: it needs the keys and channels under '${prefix}' (~${prefix}* &${prefix}*).`,
      );
    const cause = seen.at(-1) ?? (error as Error);
    throw new ConfigError(`@toolwright/redis: cannot reach Redis at ${where} (${clean(cause?.message ?? String(error))}). Start redis-server, or set the url (rediss:// for TLS).`);
  } finally {
    for (const connection of connections) connection.off('error', note);
  }
}

/** The URL as it may be logged: the user info (up to the last `@`) and a `password` query parameter masked. */
export function maskUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/i, '$1***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** The password in the URL, as written and decoded, so that neither is ever printed. */
function passwordsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const fromQuery = parsed.searchParams.get('password');
    return [parsed.password, safeDecode(parsed.password), fromQuery ?? ''].filter((p) => p.length >= 3);
  } catch {
    return [];
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
