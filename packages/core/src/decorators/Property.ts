import { PROPERTY_KEY } from '../metadata/keys';
import { readOwn } from '../metadata/ownMetadata';
import type { JsonSchema } from '../schema/JsonSchema';
import type { PropertyDocs, PropertyDocsRecord } from '../schema/propertyDocs';
import { refuseStandardDecorator } from './refuseStandardDecorator';

/** What `@Property` can say about a DTO property; it all goes into the property's JSON Schema. */
export interface PropertyOptions {
  readonly description?: string;
  readonly title?: string;
  /** Documented default. Tell the validator too: pair it with `@IsOptional()`. */
  readonly default?: unknown;
  readonly examples?: readonly unknown[];
  readonly deprecated?: boolean;
  /**
   * Mirrors the property into the HTTP header `Mcp-Param-<header>` (SEP-2243, 2026-07-28) when
   * the DTO is a tool's input: a top-level string, integer or boolean property. See `@Param({ header })`.
   */
  readonly header?: string;
  /**
   * The property's JSON Schema, used as given instead of the derived one: for unions of
   * primitives (`{ anyOf: [{ type: 'string' }, { type: 'number' }] }`) and shapes the
   * decorators cannot state. It must keep to the schema profile; pair it with `@Allow()` (or
   * decorators that accept the same values), so class-validator lets the value through.
   */
  readonly schema?: JsonSchema;
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
 * Validation still comes from class-validator decorators (and `schema`, when given); this only records.
 */
export function Property(options: PropertyOptions): PropertyDecorator {
  // Copied once: later changes to the caller's object must not change the recorded docs.
  const docs: PropertyDocs = Object.freeze({
    ...options,
    ...(options.examples ? { examples: Object.freeze([...options.examples]) } : {}),
    ...(options.schema ? { schema: structuredClone(options.schema) } : {}),
  });
  return (target, propertyKey) => {
    refuseStandardDecorator('@Property()', propertyKey);
    if (typeof propertyKey !== 'string') return; // symbol keys never appear in JSON input
    const cls = typeof target === 'function' ? target : target.constructor;
    // Read OWN metadata and write a new object: reading through the prototype chain and
    // mutating would change a decorated base class's record.
    const current = readOwn<PropertyDocsRecord>(PROPERTY_KEY, cls) ?? {};
    Reflect.defineMetadata(PROPERTY_KEY, Object.freeze({ ...current, [propertyKey]: docs }), cls);
  };
}
