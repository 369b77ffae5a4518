import { Param, Prompt } from '@toolwright/core';
import { Service } from 'typedi';
import { GENRES, type Genre } from './library.dto';
import { LibraryService } from './library.service';

/** Prompts are templates the user picks in the client (e.g. a slash command). */
@Service()
export class LibraryPrompts {
  constructor(private readonly library: LibraryService) {}

  @Prompt({ description: 'Ask for a book recommendation from what is on the shelf' })
  recommend(@Param('genre', { enum: GENRES, description: 'The genre to choose from: fiction, science or history' }) genre: Genre) {
    const available = this.library
      .search('', genre, 100)
      .filter((b) => !b.onLoan)
      .map((b) => `- ${b.title} by ${b.author} (id ${b.id})`);
    return `Recommend one of these ${genre} books and say why in two sentences:\n${available.join('\n')}`;
  }
}
