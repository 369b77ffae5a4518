import { Args, Tool, type ToolContext } from '@toolwright/core';
import { Book, SearchBooksInput, SearchBooksResult } from './search.dto';

const BOOKS: (Book & { genre: string })[] = [
  { title: 'Dune', year: 1965, genre: 'fiction' },
  { title: 'Dune Messiah', year: 1969, genre: 'fiction' },
  { title: 'A Brief History of Time', year: 1988, genre: 'science' },
];

// #region args
export class BookTools {
  @Tool({ description: 'Search the library catalogue by title words, genre and publication year.' })
  searchBooks(@Args() input: SearchBooksInput): SearchBooksResult {
    const words = input.query.toLowerCase().split(/\s+/);
    const books = BOOKS.filter((b) => words.every((w) => b.title.toLowerCase().includes(w)))
      .filter((b) => !input.genres || input.genres.includes(b.genre))
      .filter((b) => !input.published || (b.year >= input.published.from && b.year <= input.published.to))
      .slice(0, input.limit)
      .map(({ title, year }) => ({ title, year }));
    return { books, total: books.length };
  }
}
// #endregion args

// #region input-option
export class CatalogueTools {
  @Tool({ description: 'Count the books matching a search.', input: SearchBooksInput })
  countBooks(input: SearchBooksInput, ctx: ToolContext) {
    ctx.log.debug(`counting '${input.query}'`);
    return BOOKS.filter((b) => b.title.toLowerCase().includes(input.query.toLowerCase())).length;
  }
}
// #endregion input-option

// #region async-output
export class AsyncBookTools {
  // An async method's return type is reflected as Promise: name the output class.
  @Tool({ description: 'Fetch the newest books.', output: SearchBooksResult })
  async newestBooks(): Promise<SearchBooksResult> {
    const books = [...BOOKS]
      .sort((a, b) => b.year - a.year)
      .slice(0, 2)
      .map(({ title, year }) => ({ title, year }));
    return { books, total: books.length };
  }
}
// #endregion async-output
