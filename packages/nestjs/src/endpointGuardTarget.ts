import type { Type } from '@nestjs/common';
import { ConfigError } from '@toolwright/core';
import type { GuardTarget } from './nestGlobalGuards';

/**
 * The MCP endpoint as Nest's global guards see it: a class named `ToolwrightEndpoint`
 * (`context.getClass()`), one per `ToolwrightModule`, and its method `handle`
 * (`context.getHandler()`). The `endpointDecorators` are applied to both, as if written on a
 * controller and on its route, so a guard's `Reflector` finds them whichever it reads
 * (`reflector.getAllAndOverride(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()])`).
 * A class per module keeps two modules' endpoints (and two apps in one process) apart.
 */
export function endpointGuardTarget(decorators: readonly (ClassDecorator & MethodDecorator)[] = []): GuardTarget {
  if (!Array.isArray(decorators)) {
    throw new ConfigError('Toolwright: ToolwrightModule option endpointDecorators is a list of decorators, e.g. endpointDecorators: [Public()]; it was given something else.');
  }
  class ToolwrightEndpoint {
    /** The endpoint's handler, as guards see it; it is never called. */
    handle(): void {}
  }
  let cls: Type = ToolwrightEndpoint;
  decorators.forEach((decorator: unknown, i) => {
    const refuse = (what: string): never => {
      throw new ConfigError(`Toolwright: ToolwrightModule option endpointDecorators[${i}] is not a decorator (${what}). Give decorators, called: endpointDecorators: [Public()], not [Public].`);
    };
    if (typeof decorator !== 'function') return refuse(decorator === null ? 'null' : typeof decorator);
    const apply = decorator as ClassDecorator & MethodDecorator;
    const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, 'handle')!;
    const changed: unknown = apply(cls.prototype as object, 'handle', descriptor);
    // A method decorator returns nothing or a descriptor; a decorator factory given uncalled returns the decorator.
    if (changed !== undefined && (typeof changed !== 'object' || changed === null)) return refuse(`applied to a method it returned a ${typeof changed}: a decorator factory?`);
    if (changed) Object.defineProperty(cls.prototype, 'handle', changed);
    const replaced: unknown = apply(cls);
    if (typeof replaced === 'function') cls = replaced as Type;
  });
  return { cls, handler: (cls.prototype as ToolwrightEndpoint).handle };
}
