import { CALL_VALUES_KEY, type CallValue } from '../metadata/ServiceLifetime';
import { ConfigError } from '../errors/ConfigError';

/**
 * Injects what the current call knows into a constructor parameter of a `@Scoped` class:
 * `'context'` (the call's `ToolContext`), `'caller'` (its `AuthInfo`, undefined when
 * anonymous) or `'session'` (`{ id, era }`). Services then need no `@Ctx()` in every method.
 */
export function FromCall(value: CallValue): ParameterDecorator {
  return (target, propertyKey, index) => {
    if (propertyKey !== undefined) throw new ConfigError(`@FromCall('${value}') belongs on a constructor parameter; in a method, take @Ctx() instead.`);
    const previous = Reflect.getOwnMetadata(CALL_VALUES_KEY, target) as Map<number, CallValue> | undefined;
    Reflect.defineMetadata(CALL_VALUES_KEY, new Map(previous).set(index, value), target);
  };
}
