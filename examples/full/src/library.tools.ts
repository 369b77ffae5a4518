import { Args, Ctx, Param, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { Service } from 'typedi';
import { ClockService } from './clock.service';
import { Loan, PickupChoice, SearchBooksInput } from './library.dto';
import { LibraryService, type Book } from './library.service';

const LOAN_DAYS = 21;

@Service()
export class LibraryTools {
  // Two services, both built and injected by typedi from the constructor's parameter types.
  constructor(
    private readonly library: LibraryService,
    private readonly clock: ClockService,
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
    const book = this.library.find(bookId);
    if (!book) throw new ToolError(`No book with id ${bookId}. Call search_books to find the id.`);
    if (book.onLoan) throw new ToolError(`'${book.title}' is on loan. Suggest another book, or try again later.`);
    book.onLoan = true;
    // The call context: a logger that writes to stderr (never stdout, which carries the protocol).
    ctx.log.info(`lent book ${book.id} (request ${ctx.requestId})`);
    const due = new Date(this.clock.now().getTime() + LOAN_DAYS * 24 * 60 * 60 * 1000);
    return { bookId: book.id, title: book.title, dueDate: due.toISOString().slice(0, 10), renewed: false };
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
