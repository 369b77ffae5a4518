import { PROPERTY_KEY } from '../metadata/keys';
import { readOwn } from '../metadata/ownMetadata';
import type { PropertyDocs, PropertyDocsRecord } from '../schema/propertyDocs';

/** What `@Property` can say about a DTO property; it all goes into the property's JSON Schema. */
export interface PropertyOptions {
  readonly description?: string;
  readonly title?: string;
  /** Documented default. Tell the validator too: pair it with `@IsOptional()`. */
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  readonly deprecated?: boolean;
}

/**
 * Documents a DTO property for the generated JSON Schema:
 *
 * ```ts
 * class SearchInput {
 *   @Property({ description: 'Free-text query', examples: ['tokyo weather'] })
 *   @IsString() query!: string;
 * }
 * ```
 *
 * Validation still comes from class-validator decorators; this only records.
 */
export function Property(options: PropertyOptions): PropertyDecorator {
  // Copied once: later changes to the caller's object must not change the recorded docs.
  const docs: PropertyDocs = Object.freeze({ ...options, ...(options.examples ? { examples: Object.freeze([...options.examples]) } : {}) });
  return (target, propertyKey) => {
    if (typeof propertyKey !== 'string') return; // symbol keys never appear in JSON input
    const cls = typeof target === 'function' ? target : target.constructor;
    // Read OWN metadata and write a new object: reading through the prototype chain and
    // mutating would change a decorated base class's record.
    const current = readOwn<PropertyDocsRecord>(PROPERTY_KEY, cls) ?? {};
    Reflect.defineMetadata(PROPERTY_KEY, Object.freeze({ ...current, [propertyKey]: docs }), cls);
  };
}
