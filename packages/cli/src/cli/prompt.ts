import { createInterface } from 'node:readline/promises';
import type { Io } from './Io';
import { InputClosedError } from './UsageError';

/**
 * Asks one question on the terminal; an empty answer takes the default. Questions go to stderr,
 * so stdout carries only a command's result (`toolwright call ... > out.json` stays JSON).
 * Ctrl-D or Ctrl-C, or an input that has ended, throws InputClosedError (readline would reject
 * with a bare AbortError on a terminal, and wait forever on an input that ended).
 */
export async function ask(io: Io, question: string, fallback: string): Promise<string> {
  if ((io.stdin as { readableEnded?: boolean }).readableEnded === true) throw new InputClosedError(question);
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  // An input that ends right after the answer closes readline before the answer settles: wait a turn.
  const closed = new Promise<never>((_, reject) => rl.once('close', () => setImmediate(() => reject(new InputClosedError(question)))));
  closed.catch(() => undefined); // closed after the answer, by the finally below
  try {
    const answer = (await Promise.race([rl.question(`${io.err.bold('?')} ${question} ${io.err.dim(`(${fallback})`)} `), closed])).trim();
    return answer === '' ? fallback : answer;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ABORT_ERR') throw new InputClosedError(question);
    throw error;
  } finally {
    rl.close();
  }
}

/** Asks for one of `choices`, by number or by name, until the answer is one of them. */
export async function choose<T extends string>(io: Io, question: string, choices: readonly { value: T; hint: string }[], fallback: T): Promise<T> {
  io.stderr.write(`${io.err.bold('?')} ${question}\n`);
  choices.forEach((c, i) => io.stderr.write(`  ${io.err.cyan(String(i + 1))}. ${c.value.padEnd(8)} ${io.err.dim(c.hint)}\n`));
  for (;;) {
    let answer: string;
    try {
      answer = await ask(io, 'Choose', fallback);
    } catch (error) {
      throw error instanceof InputClosedError ? new InputClosedError(question) : error;
    }
    const byNumber = choices[Number(answer) - 1];
    const found = byNumber ?? choices.find((c) => c.value === answer);
    if (found) return found.value;
    io.stderr.write(`  '${answer}' is not one of the choices.\n`);
  }
}
