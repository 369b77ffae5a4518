import type { Class } from '../metadata/Class';
import { PROPERTY_KEY } from '../metadata/keys';
import { readOwn } from '../metadata/ownMetadata';
import type { JsonSchema } from './JsonSchema';

/** Documentation of one DTO property, recorded by `@Property(...)`. */
export interface PropertyDocs {
  readonly title?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  readonly deprecated?: boolean;
  /** `@Property({ header })`: the `x-mcp-header` of the property (SEP-2243). */
  readonly header?: string;
  /** `@Property({ schema })`: the property's schema, used instead of the derived one. */
  readonly schema?: JsonSchema;
}

/** The record stored as a class's OWN metadata under `toolwright:property`. */
export type PropertyDocsRecord = Readonly<Record<string, PropertyDocs>>;

/**
 * The docs of `property` as seen from `cls`: the most derived class that documents it wins,
 * so a subclass can re-document an inherited property without touching the parent.
 *
 * Defaults written as property initializers (`limit = 10`) are deliberately NOT read:
 * they exist only on an instance, and constructing a user's class at build time could run
 * arbitrary code. `plainToInstance` still applies them at call time.
 */
export function readPropertyDocs(cls: Class, property: string): PropertyDocs | undefined {
  for (const klass of classChain(cls)) {
    const record = readOwn<PropertyDocsRecord>(PROPERTY_KEY, klass);
    if (record && Object.prototype.hasOwnProperty.call(record, property)) return record[property];
  }
  return undefined;
}

/** Every property documented with `@Property` on `cls` or a base class. */
export function documentedProperties(cls: Class): string[] {
  const names = new Set<string>();
  for (const klass of classChain(cls)) {
    for (const name of Object.keys(readOwn<PropertyDocsRecord>(PROPERTY_KEY, klass) ?? {})) names.add(name);
  }
  return [...names];
}

/** `cls` and its base classes, most derived first. */
function classChain(cls: Class): object[] {
  const chain: object[] = [];
  for (let klass: unknown = cls; typeof klass === 'function' && klass !== Function.prototype; klass = Object.getPrototypeOf(klass)) {
    chain.push(klass);
  }
  return chain;
}
