import type { Class } from './Class';
import type { Completer } from './Completer';
import type { JsonSchema } from '../schema/JsonSchema';

/**
 * What a parameter's type is when reflection cannot tell: a class (`String`, `Number`,
 * `Boolean`, `Date`, or a DTO class) or a one-element array of one (`[String]`, `[Filter]`).
 */
export type TypeRef = Class | readonly [Class];

/** An enum given as a list of values or as a TypeScript `enum` object. */
export type EnumLike = readonly (string | number)[] | Record<string, string | number>;

export interface ParamOptions {
  description?: string;
  title?: string;
  /** Not required. Without a default the method receives `undefined`. */
  optional?: boolean;
  /** Used when the argument is absent; makes the parameter optional. */
  default?: unknown;
  examples?: unknown[];
  /**
   * The type, where `design:paramtypes` cannot know it: arrays (`() => [String]`), nested
   * DTO classes declared later (`() => Filters`), or a type that erases to `Object`.
   */
  type?: () => TypeRef;
  /** Allowed values (for an array parameter: allowed values of its elements). */
  enum?: EnumLike;
  /** Also accept `null`. */
  nullable?: boolean;
  /** A whole number (`"type": "integer"`). */
  integer?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  /** A regular expression the string must match (JSON Schema / ECMAScript syntax). */
  pattern?: string | RegExp;
  /** A JSON Schema format: `email`, `uri`, `uuid`, `date-time`, `date`, `time`, `ipv4`, `ipv6`, `hostname`. */
  format?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  /**
   * Mirrors the argument into the HTTP header `Mcp-Param-<header>` (SEP-2243, protocol
   * 2026-07-28): the schema gets `x-mcp-header`, clients send the value in the header too (so
   * gateways can route on it), and the server refuses a request whose header and body disagree.
   * Only for string, integer and boolean parameters; header names ignore case and must be unique.
   */
  header?: string;
  /** A raw JSON Schema for this parameter, used as given instead of the derived one. */
  schema?: JsonSchema;
  /**
   * Suggests values while the user types (`completion/complete`), for prompt arguments and
   * resource-template variables. Parameters with an `enum` (or boolean ones) complete from
   * their values without this.
   */
  complete?: Completer;
}

export type ParamKind = 'param' | 'args' | 'ctx';

/** What `@Param`, `@Args` and `@Ctx` record on the class, one entry per decorated parameter. */
export interface ParamArgs {
  readonly methodName: string;
  readonly index: number;
  readonly kind: ParamKind;
  /** The argument name (for `@Param`). */
  readonly name?: string;
  readonly options?: Readonly<ParamOptions>;
  /** The DTO class given to `@Args(() => Dto)`. */
  readonly dto?: () => Class;
}
