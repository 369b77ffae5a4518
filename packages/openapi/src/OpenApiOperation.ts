import type { JsonSchema, ToolAnnotations } from '@toolwright/core';
import type { OpenApiRoute } from './FromOpenApiOptions';

/** Where one argument of a tool goes in the request. */
export interface ArgumentPlacement {
  /** The parameter's name in the description, which is also the argument's name. */
  readonly name: string;
  /** Where the value is sent. */
  readonly in: 'path' | 'query' | 'header';
  /** Sent as JSON text (a parameter described with `content: application/json`). */
  readonly json: boolean;
}

/** One operation served as a tool. */
export interface OpenApiOperation extends OpenApiRoute {
  /** The name clients call (from `operationId`, or `names`). */
  readonly toolName: string;
  /** The operation's `summary`. */
  readonly title?: string;
  /** The operation's `description`, else its `summary`. */
  readonly description?: string;
  /** JSON Schema 2020-12 of the arguments: one property per parameter, `body` for the JSON request body. */
  readonly inputSchema: JsonSchema & { type: 'object' };
  /** Hints from the method: GET is read-only, DELETE destructive, GET/PUT/DELETE idempotent; every one is open-world. */
  readonly annotations: ToolAnnotations;
  /** Where each argument other than `body` goes. */
  readonly arguments: readonly ArgumentPlacement[];
  /** Whether the tool takes a `body` argument, sent as JSON. */
  readonly hasBody: boolean;
}

/** An operation of the description that is not served, and why. */
export interface SkippedOperation extends OpenApiRoute {
  /** Why it is not served, e.g. a request body that is not JSON. */
  readonly reason: string;
}
