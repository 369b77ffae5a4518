import { argumentDepthIssue, cutText, MAX_ARGUMENT_DEPTH } from '@toolwright/core/internal';
import { specTypeSchemas, type StandardSchemaV1 } from '../sdk/sdk';
import type { InputRequest } from './InputRound';

/** A client's answer read: the value as the SDK's schema parses it, or what is wrong with it, in words. */
export type ClientAnswer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

/** The longest field name or schema message a problem quotes: the answer is the client's, and may be of any size. */
const MAX_QUOTED = 120;

/**
 * Reads a client's answer to a question the server asked it (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`): the response to a 2025-era request and a 2026-07-28
 * `inputResponses` entry alike, so a tool sees the same value, or the same refusal, in both
 * eras. The value is the SDK's own parse of the method's result (`specTypeSchemas`), which drops
 * a `__proto__` key wherever one is; a sampling request that offered tools may be answered with
 * several content blocks. Nesting deeper than `MAX_ARGUMENT_DEPTH` is refused first, as for a
 * call's arguments: a tool could not return such a value, and a round state could not carry it.
 * The problem names the first field that is wrong and stays short whatever the answer holds.
 */
export function readClientAnswer(request: InputRequest, answer: unknown): ClientAnswer {
  const deep = argumentDepthIssue(answer);
  if (deep) return { ok: false, problem: `${deep.path} nests deeper than ${MAX_ARGUMENT_DEPTH} levels of objects and arrays` };
  const parsed = schemaOf(request)['~standard'].validate(answer);
  if (parsed.issues === undefined) return { ok: true, value: parsed.value };
  const [first] = parsed.issues;
  const problem =
    responseProblem(request.method, answer) ??
    `${first?.path?.length ? pathOf(first.path) : 'it'} does not match the ${request.method} result of the MCP schema (${cutText(first?.message ?? 'invalid', MAX_QUOTED)})`;
  return { ok: false, problem };
}

/**
 * The check of a 2025-era client's response, as a Standard Schema the SDK runs on it
 * (`ctx.mcpReq.send(request, schema)`): the value `readClientAnswer` reads, or one issue with its
 * problem, which `refused` also hears, so the tool's error can say it without the SDK's wording.
 */
export function clientAnswerSchema<T>(request: InputRequest, refused: (problem: string) => void): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolwright',
      validate(value: unknown): StandardSchemaV1.Result<T> {
        const read = readClientAnswer(request, value);
        if (read.ok) return { value: read.value as T };
        refused(read.problem);
        return { issues: [{ message: read.problem }] };
      },
    },
  };
}

function schemaOf(request: InputRequest): (typeof specTypeSchemas)[keyof typeof specTypeSchemas] {
  switch (request.method) {
    case 'elicitation/create':
      return specTypeSchemas.ElicitResult;
    case 'sampling/createMessage':
      return isObject(request.params) && request.params.tools !== undefined ? specTypeSchemas.CreateMessageResultWithTools : specTypeSchemas.CreateMessageResult;
    case 'roots/list':
      return specTypeSchemas.ListRootsResult;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with a response the SDK's schema refused, in words, for the common mistakes. */
function responseProblem(method: InputRequest['method'], r: unknown): string | undefined {
  if (!isObject(r)) return 'it must be an object';
  switch (method) {
    case 'elicitation/create':
      if (r.action !== 'accept' && r.action !== 'decline' && r.action !== 'cancel') return "action must be 'accept', 'decline' or 'cancel'";
      if (r.content !== undefined && r.content !== null && !isObject(r.content)) return 'content must be an object';
      if (isObject(r.content)) {
        const field = Object.keys(r.content).find((name) => name !== '__proto__' && !isFieldValue((r.content as Record<string, unknown>)[name]));
        if (field !== undefined) return `${pathOf(['content', field])} must be a string, a number, a boolean or an array of strings`;
      }
      return undefined;
    case 'sampling/createMessage': {
      if (r.role !== 'user' && r.role !== 'assistant') return "role must be 'user' or 'assistant'";
      if (typeof r.model !== 'string') return 'model must be a string';
      const blocks: unknown[] = Array.isArray(r.content) ? r.content : [r.content];
      if (!blocks.every((block) => isObject(block) && typeof block.type === 'string')) return 'content must be a content block with a type';
      if (Array.isArray(r.content)) return 'content may be an array of blocks only when the request offered tools';
      return undefined;
    }
    case 'roots/list': {
      if (!Array.isArray(r.roots)) return 'roots must be an array of { uri, name? }';
      const at = r.roots.findIndex((root) => !isObject(root) || typeof root.uri !== 'string' || !root.uri.startsWith('file://'));
      if (at >= 0) return `roots[${at}].uri must be a string that starts with 'file://'`;
      return undefined;
    }
  }
}

const isFieldValue = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || (Array.isArray(v) && v.every((item) => typeof item === 'string'));

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `content.name`, `roots[2].uri`, `content["a b"]`: a schema issue's path, each key cut short. */
function pathOf(path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>): string {
  return path
    .map((segment, i) => {
      const key = typeof segment === 'object' ? segment.key : segment;
      if (typeof key === 'number') return `[${key}]`;
      const name = cutText(String(key), MAX_QUOTED);
      if (!IDENTIFIER.test(name)) return `[${JSON.stringify(name)}]`;
      return i === 0 ? name : `.${name}`;
    })
    .join('');
}
