import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { ParsedArgs } from '../cli/Command';
import { println, type Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { ask } from '../cli/prompt';
import { terminalSafe } from '../cli/terminalSafe';
import { InputClosedError, UnansweredError, UsageError } from '../cli/UsageError';
import type { ServerRequestAnswers } from './ServerRequestAnswers';

type FormProperty = { type?: string; title?: string; description?: string; enum?: unknown[]; default?: unknown; items?: { enum?: unknown[] } };

export const ANSWER_HELP = `Answering the server (a tool that asks the user, or asks the client's model):
      --elicit <json>     the answer to elicitation requests: the form's content as a JSON object
                          ({"confirm":true}), {"action":"decline"}, or an array of answers in
                          order (the last one answers any further question); @file.json reads
                          it from a file
      --field <k=v>       one field of the elicitation answer (repeatable), e.g. --field confirm=true
      --decline           decline every elicitation request
      --sample <text>     the model's reply to sampling requests
  On a terminal, whatever these do not answer is asked for; otherwise an unanswered elicitation
  is cancelled (the tool sees 'cancel') and an unanswered sampling request fails.`;

/** The CLI's answers to elicitation and sampling: from flags or a JSON file, else asked on a terminal. */
export function cliAnswers(args: ParsedArgs, io: Io): ServerRequestAnswers {
  const queue = elicitAnswers(args, io);
  const sample = stringOption(args, 'sample');
  return {
    async elicit(request: ElicitRequest['params']): Promise<ElicitResult> {
      println(io.stderr, io.err.dim(`The server asks: ${terminalSafe(request.message)}`));
      if (request.mode === 'url') {
        println(io.stderr, `Open ${terminalSafe(request.url)} to continue.`);
        return { action: io.interactive ? 'accept' : 'decline' };
      }
      const next = queue.length > 1 ? queue.shift() : queue[0];
      if (next) return next.action === 'accept' && next.content ? { action: 'accept', content: coerce(next.content as Record<string, unknown>, properties(request)) } : next;
      if (io.interactive) {
        try {
          return { action: 'accept', content: await askForm(io, properties(request)) };
        } catch (error) {
          if (!(error instanceof InputClosedError)) throw error;
          println(io.stderr, io.err.yellow('The input was closed before the answer, so the request was cancelled.'));
          return { action: 'cancel' };
        }
      }
      println(io.stderr, io.err.yellow("No answer was given, so the request was cancelled. Pass --elicit '<json>', --field name=value or --decline."));
      return { action: 'cancel' };
    },
    async sample(request: CreateMessageRequest['params']): Promise<CreateMessageResult> {
      const last = request.messages.at(-1)?.content;
      const text = last && !Array.isArray(last) && last.type === 'text' ? last.text : undefined;
      println(io.stderr, io.err.dim(`The server asks the model${text === undefined ? '' : `: ${terminalSafe(text)}`}`));
      const reply = sample ?? (io.interactive ? await askOrUndefined(io, 'Reply as the model') : undefined);
      if (reply === undefined) throw new UnansweredError("toolwright has no model to answer a sampling request: pass --sample '<reply>'.");
      return { role: 'assistant', content: { type: 'text', text: reply }, model: 'toolwright-cli' };
    },
  };
}

function properties(request: ElicitRequest['params']): Record<string, FormProperty> {
  return 'requestedSchema' in request ? ((request.requestedSchema.properties ?? {}) as Record<string, FormProperty>) : {};
}

/** The answers given on the command line, in order; empty when none. */
function elicitAnswers(args: ParsedArgs, io: Io): ElicitResult[] {
  if (booleanOption(args, 'decline')) return [{ action: 'decline' }];
  const raw = stringOption(args, 'elicit');
  const fieldValues = args.values.field;
  const fields = Array.isArray(fieldValues) ? fieldValues : [];
  if (raw !== undefined && fields.length > 0) throw new UsageError('Pass --elicit or --field, not both.');
  if (fields.length > 0) {
    const content = fields.map((field) => {
      const eq = field.indexOf('=');
      if (eq <= 0) throw new UsageError(`--field '${field}' is not name=value, e.g. --field confirm=true.`);
      return [answerable(field.slice(0, eq), `--field '${terminalSafe(field)}'`), field.slice(eq + 1)];
    });
    return [{ action: 'accept', content: Object.fromEntries(content) }];
  }
  if (raw === undefined) return [];
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = readFileSync(resolve(io.cwd, raw.slice(1)), 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read --elicit ${raw}: ${(error as Error).message}.`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--elicit is not valid JSON (${(error as Error).message}). Quote it for your shell, e.g. --elicit '{"confirm":true}'.`);
  }
  return (Array.isArray(value) ? value : [value]).map((answer, i) => {
    if (typeof answer !== 'object' || answer === null) throw new UsageError(`--elicit answer #${i + 1} must be a JSON object, got ${JSON.stringify(answer)}.`);
    const { action } = answer as { action?: unknown };
    if (action === 'decline' || action === 'cancel') return { action };
    if (action === 'accept') return { action, content: formContent((answer as { content?: unknown }).content ?? {}, i) };
    if (action !== undefined) throw new UsageError(`--elicit answer #${i + 1} has action ${JSON.stringify(action)}; use accept, decline or cancel.`);
    return { action: 'accept', content: formContent(answer, i) };
  });
}

/**
 * An answer's form content, checked before anything is sent: a form field holds a string, a
 * number, a boolean or a list of strings (the spec's elicitation result), so nothing nests
 * deeper, however deep the JSON given was.
 */
function formContent(content: unknown, i: number): Record<string, string | number | boolean | string[]> {
  if (typeof content !== 'object' || content === null || Array.isArray(content))
    throw new UsageError(`--elicit answer #${i + 1}'s content must be a JSON object of form fields, e.g. {"confirm":true}.`);
  for (const [name, value] of Object.entries(content)) {
    answerable(name, `--elicit answer #${i + 1}`);
    const plain = ['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
    if (!plain) throw new UsageError(`--elicit answer #${i + 1}: field ${JSON.stringify(terminalSafe(name))} must be a string, number, boolean or list of strings, as a form field is.`);
  }
  return content as Record<string, string | number | boolean | string[]>;
}

/**
 * A field name an answer may carry. Any other member name of Object.prototype (`constructor`,
 * `toString`) is an own field like any other, but the SDK drops a `__proto__` key from every
 * elicitation result, so the server would never see that answer: it is refused before anything is sent.
 */
function answerable(name: string, where: string): string {
  if (name !== '__proto__') return name;
  throw new UsageError(`${where}: a form field named __proto__ cannot be answered, because the MCP SDK drops that key from every elicitation result. Answer the other fields, or pass --decline.`);
}

/** Turns text answers into the types the form asks for (numbers, booleans, multi-select lists). */
function coerce(content: Record<string, unknown>, form: Record<string, FormProperty>): Record<string, string | number | boolean | string[]> {
  // Object.fromEntries and Object.hasOwn: every name is an own field, whatever it is called.
  return Object.fromEntries(Object.entries(content).map(([key, value]) => [key, coerceField(value, Object.hasOwn(form, key) ? form[key]?.type : undefined)]));
}

function coerceField(value: unknown, type: string | undefined): string | number | boolean | string[] {
  if (typeof value !== 'string') return value as string | number | boolean | string[];
  if (type === 'number' || type === 'integer') return Number(value);
  if (type === 'boolean') return /^(true|yes|y|1)$/i.test(value);
  if (type === 'array')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  return value;
}

/** The answer typed on the terminal, or undefined when the input was closed (Ctrl-D or Ctrl-C) instead. */
async function askOrUndefined(io: Io, question: string): Promise<string | undefined> {
  try {
    return await ask(io, question, '');
  } catch (error) {
    if (error instanceof InputClosedError) return undefined;
    throw error;
  }
}

/** Asks for each field of the form on the terminal. */
async function askForm(io: Io, form: Record<string, FormProperty>): Promise<Record<string, string | number | boolean | string[]>> {
  const content: [string, string][] = [];
  for (const [key, property] of Object.entries(form)) {
    const choices = property.enum ?? property.items?.enum;
    const label = `${property.title ?? key}${property.description ? ` (${property.description})` : ''}${choices ? ` [${choices.join(', ')}]` : ''}`;
    content.push([key, await ask(io, terminalSafe(label), property.default === undefined ? '' : terminalSafe(String(property.default)))]);
  }
  return coerce(Object.fromEntries(content), form);
}
