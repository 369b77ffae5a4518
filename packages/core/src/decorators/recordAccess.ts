import { ACCESS_KEY, type AccessArgs } from '../metadata/AccessArgs';
import { appendOwn } from '../metadata/ownMetadata';

/** Records one authorization rule on the class (class-level when there is no property key). */
export function recordAccess(target: object, propertyKey: string | symbol | undefined, args: Omit<AccessArgs, 'methodName'>): void {
  const owner = typeof target === 'function' ? target : target.constructor;
  const record: AccessArgs = propertyKey === undefined ? args : { ...args, methodName: String(propertyKey) };
  appendOwn(ACCESS_KEY, owner, Object.freeze(record));
}
