import { Args, Ctx, Param, Scoped, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { Loan, PickupChoice, SearchBooksInput } from './library.dto';
import { LibraryService, type Book } from './library.service';
import { LoanDesk } from './loan-desk.service';

// Built per request, because it injects the request-scoped LoanDesk; the library comes from typedi.
@Scoped('request')
export class LibraryTools {
  constructor(
    private readonly library: LibraryService,
    private readonly desk: LoanDesk,
  ) {}

  @Tool({
    description: 'Search the library catalogue by title or author. Use before lend_book to find the book id.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  searchBooks(@Args() input: SearchBooksInput): Book[] {
    return this.library.search(input.query, input.genre, input.limit ?? 5);
  }

  @Tool({
    description: 'Lend a book to the user, by its id from search_books. Returns the due date.',
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  })
  lendBook(@Param('bookId', { integer: true, minimum: 1, description: 'The book id, from search_books' }) bookId: number, @Ctx() ctx: ToolContext): Loan {
    const loan = this.desk.lend(bookId);
    // The call context: log lines go to the client (notifications/message), never to stdout.
    ctx.log.info(`lent book ${loan.bookId} (request ${ctx.requestId})`);
    return loan;
  }

  @Tool({
    description: 'Reserve a book, by its id from search_books, asking the user at which branch to pick it up.',
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  })
  async reserveBook(@Param('bookId', { integer: true, minimum: 1, description: 'The book id, from search_books' }) bookId: number, @Ctx() ctx: ToolContext): Promise<string> {
    const book = this.library.find(bookId);
    if (!book) throw new ToolError(`No book with id ${bookId}. Call search_books to find the id.`);
    // Elicitation: the client shows the user a form derived from the PickupChoice class.
    const answer = await ctx.elicit(`Where do you want to pick up '${book.title}'?`, PickupChoice);
    if (answer.action !== 'accept') return `Nothing reserved: the user chose to ${answer.action}.`;
    return `Reserved '${book.title}' for pickup at the ${answer.content.branch} branch.`;
  }
}
