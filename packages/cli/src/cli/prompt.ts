import { createInterface } from 'node:readline/promises';
import type { Io } from './Io';

/** Asks one question on the terminal; an empty answer takes the default. */
export async function ask(io: Io, question: string, fallback: string): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stdout });
  try {
    const answer = (await rl.question(`${io.out.bold('?')} ${question} ${io.out.dim(`(${fallback})`)} `)).trim();
    return answer === '' ? fallback : answer;
  } finally {
    rl.close();
  }
}

/** Asks for one of `choices`, by number or by name, until the answer is one of them. */
export async function choose<T extends string>(io: Io, question: string, choices: readonly { value: T; hint: string }[], fallback: T): Promise<T> {
  io.stdout.write(`${io.out.bold('?')} ${question}\n`);
  choices.forEach((c, i) => io.stdout.write(`  ${io.out.cyan(String(i + 1))}. ${c.value.padEnd(8)} ${io.out.dim(c.hint)}\n`));
  for (;;) {
    const answer = await ask(io, 'Choose', fallback);
    const byNumber = choices[Number(answer) - 1];
    const found = byNumber ?? choices.find((c) => c.value === answer);
    if (found) return found.value;
    io.stdout.write(`  '${answer}' is not one of the choices.\n`);
  }
}
