import { PARAMS_KEY } from '../metadata/keys';
import { appendOwn } from '../metadata/ownMetadata';
import type { ParamArgs, ParamOptions } from '../metadata/ParamOptions';
import { frozenOptions } from './frozenOptions';

/**
 * Binds a method parameter to one named tool argument.
 *
 * @example
 * getWeather(＠Param('location', { description: "City name, e.g. 'Tokyo'" }) location: string)
 */
export function Param(name: string, options: ParamOptions = {}): ParameterDecorator {
  return (target, propertyKey, index) => {
    recordParam(target, propertyKey, { index, kind: 'param', name, options: frozenOptions(options) });
  };
}

export function recordParam(target: object, propertyKey: string | symbol | undefined, args: Omit<ParamArgs, 'methodName'>): void {
  const owner = typeof target === 'function' ? target : target.constructor;
  appendOwn(PARAMS_KEY, owner, Object.freeze({ ...args, methodName: String(propertyKey) }));
}
