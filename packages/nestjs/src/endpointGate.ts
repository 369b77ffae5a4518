import type { CallerCarrier } from './nestCaller';
import type { GuardRefusal, NestGlobalGuards } from './nestGlobalGuards';

/** What runs on a request to the endpoint before it is served: the app's global guards, then `authInfoFrom`. */
export interface EndpointGate {
  /** Whether there is anything to run now (guards can be added until the app listens). */
  readonly active: boolean;
  /**
   * Runs the guards on the request (`args`, what their `ExecutionContext` carries), then names its
   * caller on `raw`, the node request the endpoint serves. Undefined when the request may go on;
   * otherwise the refusal to send. It never rejects.
   */
  check(args: readonly [request: object, response: object, next: unknown], raw: CallerCarrier, where: string): Promise<GuardRefusal | undefined>;
}

type Caller = (request: object, raw: CallerCarrier, where: string) => Promise<GuardRefusal | undefined>;

/** The gate of the global guards (none with `globalGuards: false`) and the caller of `authInfoFrom` (if given); undefined when it has neither. */
export function endpointGate(guards: NestGlobalGuards | undefined, caller: Caller | undefined): EndpointGate | undefined {
  if (!guards && !caller) return undefined;
  return {
    get active() {
      return caller !== undefined || (guards?.count ?? 0) > 0;
    },
    async check(args, raw, where) {
      const refused = guards && (await guards.check(args, where));
      if (refused || !caller) return refused;
      return caller(args[0], raw, where);
    },
  };
}
