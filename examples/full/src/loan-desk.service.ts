import { FromCall, Scoped, ToolError, type AuthInfo } from '@toolwright/core';
import { ClockService } from './clock.service';
import type { Loan } from './library.dto';
import { LibraryService } from './library.service';

const LOAN_DAYS = 21;

/**
 * Lends books for one request: a new desk per call, which knows its caller without every
 * method taking the call context. In a real server it would hold the request's database
 * transaction and commit it in `dispose()`, which runs once the call has answered.
 */
@Scoped('request')
export class LoanDesk {
  constructor(
    private readonly library: LibraryService,
    private readonly clock: ClockService,
    @FromCall('caller') private readonly caller: AuthInfo | undefined,
  ) {}

  lend(bookId: number): Loan {
    const book = this.library.find(bookId);
    if (!book) throw new ToolError(`No book with id ${bookId}. Call search_books to find the id.`);
    if (book.onLoan) throw new ToolError(`'${book.title}' is on loan. Suggest another book, or try again later.`);
    book.onLoan = true;
    book.borrower = this.caller?.clientId ?? 'walk-in';
    const due = new Date(this.clock.now().getTime() + LOAN_DAYS * 24 * 60 * 60 * 1000);
    return { bookId: book.id, title: book.title, dueDate: due.toISOString().slice(0, 10), renewed: false };
  }
}
