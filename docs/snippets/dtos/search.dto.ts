// #region input
import { ArrayMaxSize, IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, Property, Type, ValidateNested } from '@toolwright/core/dto';

export class DateRange {
  @Property({ description: 'First year, inclusive' })
  @IsInt()
  @Min(1900)
  from!: number;

  @Property({ description: 'Last year, inclusive' })
  @IsInt()
  @Max(2100)
  to!: number;
}

export class SearchBooksInput {
  @Property({ description: 'Words to look for in titles', examples: ['dune'] })
  @IsString()
  @MinLength(2)
  query!: string;

  @Property({ description: 'Only these genres' })
  @IsOptional()
  @IsIn(['fiction', 'science', 'history'], { each: true })
  @ArrayMaxSize(3)
  genres?: string[];

  @Property({ description: 'Publication years' })
  @IsOptional()
  @ValidateNested()
  @Type(() => DateRange)
  published?: DateRange;

  @Property({ description: 'Most results to return', default: 10 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit: number = 10;
}
// #endregion input

// #region output
export class Book {
  @IsString() title!: string;
  @IsInt() year!: number;
}

export class SearchBooksResult {
  @Property({ description: 'The matching books, best first' })
  @ValidateNested({ each: true })
  @Type(() => Book)
  books!: Book[];

  @IsInt() total!: number;
}
// #endregion output
