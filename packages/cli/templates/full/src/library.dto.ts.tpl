import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, Property } from '@toolwright/core/dto';

export const GENRES = ['fiction', 'science', 'history'] as const;
export type Genre = (typeof GENRES)[number];

/** The input of search_books: one class, validated by class-validator, described by @Property. */
export class SearchBooksInput {
  @Property({ description: 'Words from the title or the author, e.g. "dune"' })
  @IsString()
  @MinLength(1)
  query!: string;

  @Property({ description: 'Only books of this genre: fiction, science or history' })
  @IsOptional()
  @IsIn(GENRES)
  genre?: Genre;

  @Property({ description: 'Most results to return', default: 5 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  limit?: number;
}

/** What lend_book returns: advertised as its outputSchema, sent as structuredContent. */
export class Loan {
  @Property({ description: 'The id of the lent book' })
  @IsInt()
  bookId!: number;

  @Property({ description: 'The title of the lent book' })
  @IsString()
  title!: string;

  @Property({ description: 'When the book is due back, ISO 8601 date' })
  @IsString()
  dueDate!: string;

  @Property({ description: 'Whether this loan extended an earlier one' })
  @IsBoolean()
  renewed!: boolean;
}

export const BRANCHES = ['central', 'harbour', 'university'] as const;

/** The form reserve_book asks the user to fill in (elicitation): flat, one field per question. */
export class PickupChoice {
  @Property({ title: 'Branch', description: 'Where to pick the book up' })
  @IsIn(BRANCHES)
  branch!: string;
}

/** The question overdue_report asks before it writes the report (a task's input request, for task clients). */
export class ReportOptions {
  @Property({ title: 'Include contacts', description: "Add each member's email to the report" })
  @IsBoolean()
  includeContacts!: boolean;
}
