/** `1 tool`, `2 tools`: a number with its noun, plural unless the number is 1. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
