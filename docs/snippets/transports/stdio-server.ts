// #region entry
import 'reflect-metadata';
import { createApp, parseListenArgs } from '@toolwright/server';
import { NoteTools } from './note.tools';

createApp({ name: 'notes', version: '1.0.0', tools: [NoteTools] })
  .then((app) => app.listen(parseListenArgs())) // no flags: stdio
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error); // stderr: stdout carries the protocol
    process.exit(1);
  });
// #endregion entry
