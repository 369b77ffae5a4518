import { RedisUnavailableError } from './RedisUnavailableError';

/** Runs one command, turning every failure into a RedisUnavailableError. */
export async function runCommand<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw error instanceof RedisUnavailableError ? error : new RedisUnavailableError(error);
  }
}
