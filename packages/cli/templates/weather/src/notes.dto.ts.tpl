import { Property } from '@toolwright/core';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsOptional, IsString, Max, Min, MinLength, ValidateNested } from 'class-validator';

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

/** The whole input of search_notes, validated by class-validator. */
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
