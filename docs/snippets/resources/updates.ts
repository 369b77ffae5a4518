import type { App } from '@toolwright/server';

// #region updated
/** Call this wherever the note changes: only clients subscribed to its URI are told. */
export function noteChanged(app: App, id: number): number {
  return app.notifyResourceUpdated(`notes://${id}`);
}
// #endregion updated
