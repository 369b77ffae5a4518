import type { Class } from '../metadata/Class';
import type { BuildProblem } from './BuildProblem';

/** Who claimed a tool name, URI or prompt name: the served class and the method's declaration. */
export interface NameClaim {
  /** `Class.method`, as the problems name it. */
  readonly where: string;
  readonly cls: Class;
  /** The class whose prototype declared the decorated method (an ancestor for an inherited one). */
  readonly declaredOn: Class;
  readonly methodName: string;
}

/** How the messages speak of one kind of name. */
export interface NameKind {
  /** `tool name 'list_repos'`, `URI 'docs://readme'`. */
  readonly label: string;
  /** The fix for two different declarations. */
  readonly fix: string;
  /** How an override gets another one: `@Tool({ name: 'other_name' })`. */
  readonly rename: string;
  /** What a class serves of this kind: 'tools', 'resources', 'prompts'. */
  readonly members: string;
}

/**
 * The problem of a name claimed twice. When both claims are the same declaration (a method
 * two served classes inherit, or a class served next to its subclass), renaming one is not
 * possible where the decorator is, so the fix says what is: serve only one of the classes,
 * or override the method in one and give the override its own name.
 */
export function duplicateNameProblem(current: NameClaim, previous: NameClaim, kind: NameKind): BuildProblem {
  const what = `its ${kind.label} is already used by ${previous.where}`;
  if (current.declaredOn !== previous.declaredOn || current.methodName !== previous.methodName) return { where: current.where, what, fix: kind.fix };
  const declaration = `${current.declaredOn.name}.${current.methodName}`;
  const override = (cls: Class) => `override ${current.methodName} in ${cls.name} and give the override ${kind.rename}`;
  const [ancestor, descendant] = isAncestor(previous.cls, current.cls) ? [previous.cls, current.cls] : isAncestor(current.cls, previous.cls) ? [current.cls, previous.cls] : [];
  if (ancestor && descendant) {
    return {
      where: current.where,
      what:
        ancestor === current.declaredOn
          ? `${what}: both are ${declaration}, which ${descendant.name} inherits`
          : `${what}: both inherit ${declaration}, and ${descendant.name} extends ${ancestor.name}`,
      fix: `remove ${ancestor.name} from \`tools\`: it serves the same ${kind.members} as its subclass ${descendant.name}. To serve both, ${override(descendant)}.`,
    };
  }
  return {
    where: current.where,
    what: `${what}: both inherit ${declaration}`,
    fix: `list only one of ${previous.cls.name} and ${current.cls.name} in \`tools\`, or ${override(current.cls)}.`,
  };
}

function isAncestor(ancestor: Class, cls: Class): boolean {
  return ancestor !== cls && cls.prototype instanceof ancestor;
}
