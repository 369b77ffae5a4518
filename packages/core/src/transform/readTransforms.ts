import type { Class } from '../metadata/Class';
import { TRANSFORMS_KEY } from '../metadata/keys';
import { readOwnList } from '../metadata/ownMetadata';
import type { ToolTransform, ToolTransforms } from './ToolTransform';

/** The `@TransformTools` records of a class and its ancestors by tool name (the subclass's wins), and the names looked up. */
export function readTransforms(cls: Class): { readonly of: (toolName: string) => ToolTransform | undefined; readonly unused: () => string[] } {
  const byName = new Map<string, ToolTransform>();
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const record of [...readOwnList<ToolTransforms>(TRANSFORMS_KEY, c as Class)].reverse()) {
      for (const name of Object.keys(record)) if (!byName.has(name)) byName.set(name, record[name]!);
    }
  }
  const used = new Set<string>();
  return {
    of: (toolName) => {
      used.add(toolName);
      return byName.get(toolName);
    },
    unused: () => [...byName.keys()].filter((n) => !used.has(n)),
  };
}
