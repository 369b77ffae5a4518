import { Args, Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { BoardInput, Card, Owner } from './board.dto';

/**
 * The tools the edge runtimes serve. The parameter types are known only from decorator
 * metadata (`design:paramtypes`, emitted by tsc): `count` is an integer, `loud` a boolean,
 * with nothing but the TypeScript type saying so. A build that drops the metadata (esbuild,
 * tsx over the TypeScript) would serve other schemas: the runtime tests compare them with node's.
 */
export class NoteTools {
  @Tool({ description: 'Repeats a note, in the era the request was served in.' })
  repeat(
    @Param('note', { description: 'What to repeat', minLength: 1 }) note: string,
    @Param('count', { description: 'How many times', integer: true, minimum: 1, maximum: 5 }) count: number,
    @Param('loud', { description: 'Upper case', default: false }) loud: boolean,
    @Ctx() ctx: ToolContext,
  ): string {
    const text = Array.from({ length: count }, () => (loud ? note.toUpperCase() : note)).join(' ');
    return `${ctx.era}: ${text}`;
  }

  @Tool({ description: 'Counts to n, reporting progress at each step.' })
  async count(@Param('n', { integer: true, minimum: 1, maximum: 10 }) n: number, @Ctx() ctx: ToolContext): Promise<string> {
    for (let i = 1; i <= n; i++) await ctx.progress(i, n, `at ${i}`);
    return `counted to ${n}`;
  }

  @Tool({ description: 'Plans a board from nested input: an owner and a list of cards.' })
  plan(@Args() input: BoardInput): string {
    // plainToInstance built the nested classes (`@Type`): the methods and prototypes are there.
    const built = input.owner instanceof Owner && input.cards.every((card) => card instanceof Card);
    return `${input.owner.name}: ${input.cards.map((card) => card.label()).join(', ')}${built ? '' : ' (not built)'}`;
  }
}
