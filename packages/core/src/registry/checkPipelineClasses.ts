import type { Class } from '../metadata/Class';
import { readOwnList } from '../metadata/ownMetadata';
import { PIPELINE_KEY, type PipelineArgs } from '../pipeline/PipelineArgs';
import type { BuildProblem } from './BuildProblem';
import { checkConstructorTypes, checkLifetimes } from './checkLifetimes';
import type { UntypedConstructor } from './missingMetadata';

/**
 * Middleware and guard classes are built by the call's container, like tool classes, so
 * the same rules hold at build: an app-lifetime one cannot inject a scoped service, and a
 * constructor that takes parameters needs its constructor types (a class without them is
 * recorded in `untyped`). Each class is checked once (the app's `middleware` and every
 * `@UseMiddleware`/`@UseGuards` of the served classes and their ancestors), and reported
 * where it is: `Audit (middleware)`.
 */
export function checkPipelineClasses(served: readonly Class[], appMiddleware: readonly unknown[], containerReadsTypes: boolean, problems: BuildProblem[], untyped: UntypedConstructor[]): void {
  const roles = new Map<Class, 'middleware' | 'guard'>();
  const add = (item: unknown, role: 'middleware' | 'guard') => {
    const method = role === 'middleware' ? 'use' : 'canActivate';
    if (typeof (item as { prototype?: Record<string, unknown> } | undefined)?.prototype?.[method] === 'function' && !roles.has(item as Class)) roles.set(item as Class, role);
  };
  for (const m of appMiddleware) add(m, 'middleware');
  for (const cls of served) {
    for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      for (const record of readOwnList<PipelineArgs>(PIPELINE_KEY, c as Class)) {
        for (const item of record.items) add(item, record.kind === 'middleware' ? 'middleware' : 'guard');
      }
    }
  }
  for (const [cls, noun] of roles) {
    const role = { where: `${cls.name} (${noun})`, noun };
    checkConstructorTypes(cls, untyped, containerReadsTypes, role);
    checkLifetimes(cls, problems, role);
  }
}
