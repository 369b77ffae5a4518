import { ConfigError, type MiddlewareFn } from '@toolwright/core';
import { refuseCall } from './refuseCall';
import { subjectOf } from './subjectOf';

export interface MaxResultSizeOptions {
  /** The largest result served, in bytes of its JSON (UTF-8). */
  readonly bytes: number;
}

/**
 * Refuses to send a result larger than `bytes` (its JSON, UTF-8): a tool's becomes an
 * `isError` result saying so (so the model can ask for less), a read's or prompt's a
 * JSON-RPC error; either way the size is logged as a warning. Results at the limit or under pass as they are.
 *
 * @example
 * createApp({ ..., middleware: [maxResultSize({ bytes: 256 * 1024 })] })
 */
export function maxResultSize(options: MaxResultSizeOptions): MiddlewareFn {
  const { bytes } = options;
  if (!(Number.isInteger(bytes) && bytes > 0)) throw new ConfigError(`maxResultSize: bytes must be a positive integer, got ${bytes}.`);
  return async function maxResultSize(call, next) {
    const result = await next();
    const json = JSON.stringify(result) ?? '';
    // A string of n UTF-16 units is at most 3n bytes: most results need no count.
    if (json.length * 3 <= bytes) return result;
    const size = Buffer.byteLength(json, 'utf8');
    if (size <= bytes) return result;
    call.logger.warn(`${subjectOf(call)} produced a result of ${size} bytes, over maxResultSize's ${bytes}; the caller got an error instead`, {
      kind: call.kind,
      name: call.name,
      bytes: size,
      limit: bytes,
    });
    return refuseCall(call.kind, `The result of ${subjectOf(call)} is too large to send (${size} bytes, the limit is ${bytes}). Ask for less: narrower arguments, a smaller page or range.`);
  };
}
