/** Whether `error` is Redis refusing a command because `maxmemory` is reached (`OOM command not allowed ...`). */
export function isOutOfMemoryReply(error: unknown): boolean {
  return (error as Error | undefined)?.name === 'ReplyError' && /^OOM\b/.test(String((error as Error).message));
}
