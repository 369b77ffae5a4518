import { Args, Tool } from '@toolwright/core';
import { SearchNotesInput } from './notes.dto';

interface Note {
  id: number;
  text: string;
  tags: string[];
}

const NOTES: Note[] = [
  { id: 1, text: 'Pack an umbrella for Paris', tags: ['travel', 'weather'] },
  { id: 2, text: 'Tokyo trip: check the forecast', tags: ['travel', 'weather', 'japan'] },
  { id: 3, text: 'Buy a forecast subscription', tags: ['shopping'] },
];

export class NotesTools {
  @Tool({
    description: 'Search the user\'s notes by text, filtered by tags. Returns matching notes with a relevance score.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  searchNotes(@Args() input: SearchNotesInput) {
    const words = input.query.toLowerCase().split(/\s+/);
    return NOTES.filter((n) => input.filters.tags.every((t) => n.tags.includes(t)))
      .map((n) => ({ ...n, score: words.filter((w) => n.text.toLowerCase().includes(w)).length / words.length }))
      .filter((n) => n.score > 0 && n.score >= (input.filters.minScore ?? 0))
      .slice(0, input.limit ?? 10);
  }
}
