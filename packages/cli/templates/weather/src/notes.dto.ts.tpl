import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsOptional, IsString, Max, Min, MinLength, Property, Type, ValidateNested } from '@toolwright/core/dto';

export class NoteFilters {
  @Property({ description: 'Only notes carrying all of these tags.' })
  @IsArray()
  @IsString({ each: true })
  @ArrayMaxSize(10)
  tags!: string[];

  @Property({ description: 'Minimum relevance score, 0 to 1.' })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  minScore?: number;
}

/** The whole input of search_notes. The decorators are class-validator's, loaded one by one through @toolwright/core/dto. */
export class SearchNotesInput {
  @Property({ description: 'Words to look for in the note text.' })
  @IsString()
  @MinLength(1)
  query!: string;

  @Property({ description: 'Narrow the search.' })
  @ValidateNested()
  @Type(() => NoteFilters)
  filters!: NoteFilters;

  @Property({ description: 'Most results to return.', default: 10 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}
