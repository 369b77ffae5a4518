import { Param, Resource, ResourceNotFoundError } from '@toolwright/core';
import { Service } from 'typedi';
import { LibraryService } from './library.service';

/** Read-only context the client can attach to a conversation: the catalogue and single books. */
@Service()
export class LibraryResources {
  constructor(private readonly library: LibraryService) {}

  @Resource('library://catalogue', { description: 'Every book in the library with its id and whether it is on loan', mimeType: 'application/json' })
  catalogue() {
    return this.library.search('', undefined, 100);
  }

  // A URI template: `{id}` is a typed, validated parameter, like a tool's.
  @Resource('library://books/{id}', { description: 'One book by id, as JSON', mimeType: 'application/json' })
  book(@Param('id', { integer: true, minimum: 1, description: 'The book id' }) id: number) {
    const book = this.library.find(id);
    if (!book) throw new ResourceNotFoundError(`library://books/${id}`, `There is no book ${id}. Read library://catalogue for the ids.`);
    return book;
  }
}
