import type { ModuleRef } from '@nestjs/core';
import { ConfigError, type ContainerLike } from '@toolwright/core';

/**
 * Nest's container as Toolwright's `ContainerLike`: a class is the module's provider (or one
 * any module exports), as `moduleRef.get(cls, { strict: false })` finds it. A class Nest does
 * not know is refused with the fix, rather than built behind Nest's back.
 */
export function nestContainer(moduleRef: ModuleRef): ContainerLike {
  return {
    get<T>(cls: new (...args: never[]) => T): T {
      try {
        return moduleRef.get(cls, { strict: false });
      } catch (error) {
        throw new ConfigError(
          `Toolwright: Nest has no provider ${cls.name}. Add it to ToolwrightModule.forRoot({ providers: [${cls.name}] }) (or to a module in its imports), and mark it @Injectable(). ` +
            `Request-scoped providers cannot serve tools: use the default scope.`,
          { cause: error },
        );
      }
    },
  };
}
