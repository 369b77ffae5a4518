import { Param, Public, RequireRoles, RequireScopes, Tool } from '@toolwright/core';

// #region decorators
@RequireScopes('notes:read') // every tool of the class needs this scope...
export class NoteTools {
  @Tool({ description: 'List the notes.' })
  listNotes() {
    return ['first note'];
  }

  @RequireScopes('notes:write') // ...this one needs notes:write as well
  @Tool({ description: 'Delete a note.' })
  deleteNote(@Param('id') id: string) {
    return `Deleted ${id}.`;
  }

  @Public() // ...and this one is open to everyone, anonymous callers included
  @Tool({ description: 'Count the notes.' })
  countNotes() {
    return 1;
  }

  @RequireRoles('admin', 'support') // one of these roles (authInfo.extra.roles)
  @Tool({ description: 'Restore deleted notes.' })
  restore() {
    return 'Restored.';
  }
}
// #endregion decorators
