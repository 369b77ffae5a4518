import { createDefaultContainer, readsConstructorTypes, unregisteredService } from '../container/defaultContainer';
import { stderrLogger } from '../context/stderrLogger';
import { checkViewLinks } from '../apps/checkViewLinks';
import { BuildError } from '../errors/BuildError';
import type { Class } from '../metadata/Class';
import { TOOLS_KEY } from '../metadata/keys';
import { hasServedMethods, readMemberMetadata } from '../metadata/readMemberMetadata';
import type { ToolArgs } from '../metadata/ToolOptions';
import type { BuildOptions } from './BuildOptions';
import type { BuildProblem } from './BuildProblem';
import { buildTool } from './buildTool';
import { collectMembers, createMemberCollector } from './collectMembers';
import { descriptorProblem } from './descriptorProblem';
import { TOOL_SHAPE } from './descriptorShapes';
import { checkConstructorTypes, checkLifetimes } from './checkLifetimes';
import { checkPipelineClasses } from './checkPipelineClasses';
import { duplicateNameProblem, type NameClaim, type NameKind } from './duplicateName';
import { reportMissingMetadata, type UntypedConstructor } from './missingMetadata';
import { lifetimeOf } from '../metadata/ServiceLifetime';
import type { Registry } from './Registry';
import { markCompiled, type CompiledTool } from './CompiledRegistry';
import { readTransforms } from '../transform/readTransforms';
import { transformTool } from '../transform/transformTool';

/**
 * Reads the decorators of the given classes once, derives every schema, compiles every
 * validator and checks everything. Returns a frozen registry, or throws one `BuildError`
 * listing every problem with its fix.
 */
export function buildRegistry(options: BuildOptions): Registry {
  const problems: BuildProblem[] = [];
  const container = options.container ?? createDefaultContainer();
  const logger = options.logger ?? stderrLogger('tools');
  const tools: CompiledTool[] = [];
  const owners = new Map<string, NameClaim>();
  const members = createMemberCollector();
  const readsTypes = readsConstructorTypes(container);
  const served: Class[] = [];
  const untyped: UntypedConstructor[] = [];

  for (const cls of dedupe(options.tools)) {
    if (typeof cls !== 'function') {
      problems.push({ where: `tools[${options.tools.indexOf(cls)}]`, what: `is not a class (got ${typeof cls})`, fix: 'pass the tool classes themselves: `tools: [WeatherTools]`.' });
      continue;
    }
    if (!hasServedMethods(cls)) {
      problems.push({ where: cls.name, what: 'has no @Tool, @Resource or @Prompt methods', fix: 'decorate at least one method with @Tool(), or remove the class from `tools`.' });
      continue;
    }
    served.push(cls);
    checkLifetimes(cls, problems);
    // Without constructor types the container would build it with the wrong arguments, and succeed.
    const noTypes = checkConstructorTypes(cls, untyped, readsTypes);
    // A scoped class is built per request or session, never by the app's container.
    if (lifetimeOf(cls) === 'app' && !noTypes) checkContainer(cls, container, problems);
    collectMembers(cls, { container, logger, problems, readViewFile: options.readViewFile }, members);
    const transforms = readTransforms(cls);
    const ownNames: string[] = [];
    let allBuilt = true;
    for (const found of readMemberMetadata<ToolArgs>(cls, TOOLS_KEY)) {
      const where = `${cls.name}.${found.member.methodName}`;
      const built = buildTool(cls, found, { container, coerce: options.coerce === true, logger, problems });
      if (built) ownNames.push(built.name);
      else allBuilt = false;
      const transform = built && transforms.of(built.name);
      const tool = built && transform ? transformTool(built, transform, where, problems) : built;
      if (!tool) continue;
      const unsendable = descriptorProblem(tool.descriptor, where, TOOL_SHAPE);
      if (unsendable) {
        problems.push(unsendable);
        continue;
      }
      const claim: NameClaim = { where, cls, declaredOn: found.declaredOn, methodName: found.member.methodName };
      const previous = owners.get(tool.name);
      if (previous) {
        problems.push(duplicateNameProblem(claim, previous, TOOL_NAME_KIND(tool.name)));
        continue;
      }
      owners.set(tool.name, claim);
      tools.push(tool);
    }
    for (const name of allBuilt ? transforms.unused() : []) {
      problems.push({
        where: cls.name,
        what: `@TransformTools names tool '${name}', which the class does not serve`,
        fix: `use one of its tool names (before any rename): ${ownNames.join(', ') || '(none)'}.`,
      });
    }
  }
  checkPipelineClasses(served, options.middleware ?? [], readsTypes, problems, untyped);
  reportMissingMetadata(untyped, served, problems);
  checkViewLinks(tools, members.resources, problems);
  if (problems.length > 0) throw new BuildError(problems);

  const byName = new Map(tools.map((t) => [t.name, t]));
  const toolList = deepFreeze(structuredClone({ tools: tools.map((t) => t.descriptor) }));
  return markCompiled(
    Object.freeze({
      tools: Object.freeze(tools),
      tool: (name: string) => byName.get(name),
      toolList,
      resources: Object.freeze(members.resources),
      resourceTemplates: Object.freeze(members.templates),
      prompts: Object.freeze(members.prompts),
    }),
  );
}

function checkContainer(cls: Class, container: NonNullable<BuildOptions['container']>, problems: BuildProblem[]): void {
  let reason: string | undefined;
  let notFound = false;
  try {
    if (container.get(cls) === undefined) reason = 'the container returned undefined';
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error);
    notFound = error instanceof Error && error.name === 'ServiceNotFoundError';
  }
  if (reason === undefined) return;
  // typedi names the identifier it lacks in its own terms: name the class, and who injects it.
  const unregistered = notFound ? unregisteredService(cls, container) : undefined;
  if (unregistered?.injectedBy) {
    const { missing, injectedBy, index = 0, path } = unregistered;
    const builtIn = Object.hasOwn(globalThis, missing.name) && (globalThis as Record<string, unknown>)[missing.name] === missing;
    problems.push({
      where: `${missing.name}, injected by ${injectedBy.name} (constructor parameter ${index + 1})`,
      what: `is not registered with the container, so the container cannot build ${cls.name}${path.length > 2 ? ` (${path.map((c) => c.name).join(' -> ')})` : ''}`,
      fix: builtIn
        ? `typedi cannot build a ${missing.name}: give that parameter of ${injectedBy.name} @Inject(token) and register the value with Container.set(token, value).`
        : `mark ${missing.name} @Service() (typedi). If the parameter stands for an interface or a value, give it @Inject(token) and register it with Container.set(token, value).`,
    });
  } else if (unregistered) {
    problems.push({ where: cls.name, what: 'is not registered with the container, so it cannot be built', fix: `mark ${cls.name} @Service() (typedi), or pass your own \`container\`.` });
  } else {
    problems.push({
      where: cls.name,
      what: `the container cannot build this class: ${reason}`,
      fix: 'mark the class and the services it injects with @Service() (typedi), give interface-typed dependencies an @Inject(token), or pass your own `container`.',
    });
  }
}

const TOOL_NAME_KIND = (name: string): NameKind => ({
  label: `tool name '${name}'`,
  fix: "give one of them another name: @Tool({ name: 'other_name' }).",
  rename: "@Tool({ name: 'other_name' })",
  members: 'tools',
});

function dedupe<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
