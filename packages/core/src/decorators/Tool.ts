import { TOOLS_KEY } from '../metadata/keys';
import { appendOwn } from '../metadata/ownMetadata';
import type { ToolArgs, ToolOptions } from '../metadata/ToolOptions';
import { refuseStandardDecorator } from './refuseStandardDecorator';
import { frozenOptions } from './frozenOptions';

/**
 * Marks a method as an MCP tool. Only records; the registry build reads it.
 *
 * @example
 * ＠Tool({ description: 'Get current weather for a city.' })
 * getWeather(＠Param('location') location: string) { ... }
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    refuseStandardDecorator('@Tool()', propertyKey);
    const isStatic = typeof target === 'function';
    const owner = isStatic ? target : target.constructor;
    const args: ToolArgs = { methodName: String(propertyKey), options: frozenOptions(options), isStatic };
    appendOwn(TOOLS_KEY, owner, Object.freeze(args));
  };
}
