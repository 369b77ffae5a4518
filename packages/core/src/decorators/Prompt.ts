import { PROMPTS_KEY } from '../metadata/keys';
import { appendOwn } from '../metadata/ownMetadata';
import type { PromptArgs, PromptOptions } from '../metadata/PromptOptions';
import { refuseStandardDecorator } from './refuseStandardDecorator';
import { frozenOptions } from './frozenOptions';

/**
 * Marks a method as an MCP prompt. Its `@Param`s are the prompt's arguments (prompt
 * arguments arrive as strings; numbers and booleans are converted and validated).
 * A returned string becomes one user message.
 *
 * @example
 * ＠Prompt({ description: 'Review a piece of code' })
 * review(＠Param('code') code: string) { return `Please review:\n${code}`; }
 */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    refuseStandardDecorator('@Prompt()', propertyKey);
    const isStatic = typeof target === 'function';
    const owner = isStatic ? target : target.constructor;
    const args: PromptArgs = { methodName: String(propertyKey), options: frozenOptions(options), isStatic };
    appendOwn(PROMPTS_KEY, owner, Object.freeze(args));
  };
}
