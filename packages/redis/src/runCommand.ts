import { RedisUnavailableError } from './RedisUnavailableError';

/**
 * Runs one command, turning every failure into a RedisUnavailableError. With `code` (a JSON-RPC
 * error code) the error carries it, so a client is told why, not only "Internal error".
 */
export async function runCommand<T>(command: () => Promise<T>, code?: number): Promise<T> {
  try {
    return await command();
  } catch (error) {
    const unavailable = error instanceof RedisUnavailableError ? error : new RedisUnavailableError(error);
    throw code === undefined ? unavailable : Object.assign(unavailable, { code });
  }
}
