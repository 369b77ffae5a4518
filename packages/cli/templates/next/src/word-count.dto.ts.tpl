import { IsInt, Min, Property } from '@toolwright/core/dto';

/** What word_count returns: advertised as its outputSchema (from `design:returntype`), sent as structuredContent. */
export class WordCount {
  @Property({ description: 'Words: runs of characters between white space.' })
  @IsInt()
  @Min(0)
  words!: number;

  @Property({ description: 'Characters, as a reader counts them (Unicode code points).' })
  @IsInt()
  @Min(0)
  characters!: number;
}
