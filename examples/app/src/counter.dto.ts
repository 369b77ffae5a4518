import { IsInt, IsString, Property } from '@toolwright/core/dto';

/** What the counter tools return, advertised as their outputSchema: the view reads `count`, a client without views shows `text`. */
export class CounterState {
  @Property({ description: 'The current count' })
  @IsInt()
  count!: number;

  @Property({ description: 'The count in a sentence, for clients that show no view' })
  @IsString()
  text!: string;
}
