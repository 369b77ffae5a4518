import { Param, Resource, ResourceNotFoundError } from '@toolwright/core';

const NOTES = new Map<number, string>([
  [1, 'Buy milk'],
  [2, 'Call Ada'],
]);

// #region static
export class NoteResources {
  @Resource('notes://index', { description: 'All note ids, one per line', mimeType: 'text/plain' })
  index() {
    return [...NOTES.keys()].join('\n');
  }

  @Resource('config://app', { description: 'The app settings' })
  config() {
    return { theme: 'dark', pageSize: 20 }; // served as JSON text, application/json
  }

  @Resource('file:///logo.png', { mimeType: 'image/png' })
  logo() {
    return Buffer.from('iVBORw0KGgo=', 'base64'); // a Buffer becomes a base64 blob
  }
  // #endregion static

  // #region template
  @Resource('notes://{id}', { description: 'One note by id', mimeType: 'text/plain' })
  note(@Param('id', { integer: true, minimum: 1 }) id: number) {
    const text = NOTES.get(id);
    if (text === undefined) throw new ResourceNotFoundError(`notes://${id}`, `There is no note ${id}.`);
    return text;
  }
  // #endregion template
}
