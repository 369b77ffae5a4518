import type { ModuleRef } from '@nestjs/core';
import { ConfigError, type ContainerLike } from '@toolwright/core';

/**
 * Nest's container as Toolwright's `ContainerLike`: a class is the module's provider (or one
 * any module exports), as `moduleRef.get(cls, { strict: false })` finds it. A class Nest does
 * not know is refused with the fix, rather than built behind Nest's back; so is one Nest builds
 * per request (request or transient scope, its own or that of a provider it injects).
 */
export function nestContainer(moduleRef: ModuleRef): ContainerLike {
  return {
    get<T>(cls: new (...args: never[]) => T): T {
      try {
        return moduleRef.get(cls, { strict: false });
      } catch (error) {
        // Nest's InvalidClassScopeException: the class is a provider, but one Nest builds per request or per consumer.
        if ((error as { constructor?: { name?: unknown } } | null)?.constructor?.name === 'InvalidClassScopeException') {
          throw new ConfigError(
            `Toolwright: Nest provides ${cls.name} per request (it is request- or transient-scoped, or injects a provider that is, such as one that injects REQUEST), ` +
              `and tools are built once. Give ${cls.name} and what it injects the default scope; read the caller in a tool from ctx.authInfo (ToolwrightModule's authInfoFrom maps the request to it), not from REQUEST.`,
            { cause: error },
          );
        }
        throw new ConfigError(
          `Toolwright: Nest has no provider ${cls.name}. Add it to ToolwrightModule.forRoot({ providers: [${cls.name}] }) (or to a module in its imports), and mark it @Injectable(). ` +
            `Request-scoped providers cannot serve tools: use the default scope.`,
          { cause: error },
        );
      }
    },
  };
}
