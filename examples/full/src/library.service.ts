import { Service } from 'typedi';
import type { Genre } from './library.dto';

export interface Book {
  id: number;
  title: string;
  author: string;
  genre: Genre;
  onLoan: boolean;
  /** Who borrowed it (the caller's client id), while on loan. */
  borrower?: string;
}

/** The catalogue: in memory here, a database in a real server. One instance for the app. */
@Service({ global: true })
export class LibraryService {
  private readonly books: Book[] = [
    { id: 1, title: 'Dune', author: 'Frank Herbert', genre: 'fiction', onLoan: false },
    { id: 2, title: 'A Brief History of Time', author: 'Stephen Hawking', genre: 'science', onLoan: false },
    { id: 3, title: 'The Guns of August', author: 'Barbara Tuchman', genre: 'history', onLoan: true },
    { id: 4, title: 'Children of Dune', author: 'Frank Herbert', genre: 'fiction', onLoan: false },
  ];

  search(query: string, genre: Genre | undefined, limit: number): Book[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return this.books
      .filter((b) => genre === undefined || b.genre === genre)
      .filter((b) => words.every((w) => `${b.title} ${b.author}`.toLowerCase().includes(w)))
      .slice(0, limit);
  }

  find(id: number): Book | undefined {
    return this.books.find((b) => b.id === id);
  }
}
