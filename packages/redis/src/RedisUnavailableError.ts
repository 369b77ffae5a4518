/**
 * Raised for every command Redis could not run; its message says Redis is unreachable and why,
 * or, when Redis answered with an error (out of memory, read-only replica, ...), that it refused
 * the command and Redis's reason (without the script position Redis appends).
 */
export class RedisUnavailableError extends Error {
  constructor(cause: unknown) {
    const message = String((cause as Error)?.message ?? cause);
    super((cause as Error)?.name === 'ReplyError' ? `Redis refused the command: ${message.replace(/\s*script: [0-9a-f]{40}, on @user_script:\d+\.?$/, '')}` : `Redis is unreachable: ${message}`);
    this.name = 'RedisUnavailableError';
  }
}
