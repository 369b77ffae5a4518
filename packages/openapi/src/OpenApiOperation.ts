import type { JsonSchema, ToolAnnotations } from '@toolwright/core';
import type { OpenApiRoute } from './FromOpenApiOptions';

/** Where one argument of a tool goes in the request. */
export interface ArgumentPlacement {
  /** The parameter's name in the description, which is also the argument's name. */
  readonly name: string;
  /** Where the value is sent. */
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  /** Sent as JSON text (a parameter described with `content: application/json`). */
  readonly json: boolean;
  /**
   * How arrays and objects are written (the parameter's `style`, else the default for its location):
   * `simple` (path, header), `label`, `matrix` (path), `form` (query, cookie), `spaceDelimited`,
   * `pipeDelimited`, `deepObject` (query).
   */
  readonly style: 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  /** The parameter's `explode` (default true for `form`, else false): one name per item or key. */
  readonly explode: boolean;
}

/** One operation served as a tool, or (a GET matched by a `routes` rule) as a resource. */
export interface OpenApiOperation extends OpenApiRoute {
  /** What it is served as. */
  readonly servedAs: 'tool' | 'resource';
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
  /** Whether the tool takes a `body` argument. */
  readonly hasBody: boolean;
  /** How `body` is sent: JSON, `application/x-www-form-urlencoded` or `multipart/form-data`. */
  readonly bodyEncoding: 'json' | 'form' | 'multipart';
  /** Fields of a multipart body that are files: the argument takes them as base64 text. */
  readonly binaryFields: readonly string[];
  /** JSON Schema of the success response's JSON object, when the description gives one (the tool's `outputSchema`). */
  readonly outputSchema?: JsonSchema & { type: 'object' };
}

/** An operation of the description that is not served, and why. */
export interface SkippedOperation extends OpenApiRoute {
  /** Why it is not served, e.g. a request body that is not JSON. */
  readonly reason: string;
}
