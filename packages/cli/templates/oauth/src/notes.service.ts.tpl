import { Service } from 'typedi';

export interface Note {
  readonly id: number;
  readonly owner: string;
  readonly text: string;
}

/** The notes of every user, in memory (one instance: typedi's singleton). */
@Service()
export class NoteService {
  private readonly notes: Note[] = [];

  of(owner: string): readonly Note[] {
    return this.notes.filter((note) => note.owner === owner);
  }

  add(owner: string, text: string): Note {
    const note: Note = { id: this.notes.length + 1, owner, text };
    this.notes.push(note);
    return note;
  }
}
