import { ConfigError } from '@toolwright/core';

/**
 * `@toolwright/fastify`'s `createToolwrightPlugin`, loaded when a Nest app runs on the Fastify
 * platform and only then: it is an optional peer dependency, so Express platform apps never
 * install Fastify. Missing, it is a `ConfigError` saying what to install.
 */
export function loadFastifyPlugin(): typeof import('@toolwright/fastify').createToolwrightPlugin {
  try {
    return (require('@toolwright/fastify') as typeof import('@toolwright/fastify')).createToolwrightPlugin;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new ConfigError(
      "Toolwright: this Nest app runs on the Fastify platform, which ToolwrightModule serves through @toolwright/fastify, an optional peer dependency that is not installed. Run 'npm install @toolwright/fastify'.",
      { cause: error },
    );
  }
}
