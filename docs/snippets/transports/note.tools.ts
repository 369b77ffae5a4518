import { Param, Tool } from '@toolwright/core';

// #region tools
export class NoteTools {
  private readonly notes: string[] = [];

  @Tool({ description: 'Save a note.' })
  addNote(@Param('text') text: string) {
    console.log('saving', text); // safe over stdio: Toolwright sends console.log to stderr
    this.notes.push(text);
    return `Saved note #${this.notes.length}.`;
  }
}
// #endregion tools
