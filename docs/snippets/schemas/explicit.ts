import { Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';

// #region explicit
export class LookupTools {
  @Tool({ description: 'Look up people by id.' })
  lookup(
    @Param('ids', { type: () => [Number], integer: true, minItems: 1 }) ids: number[], // element type
    @Param('sort', { enum: ['name', 'age'], optional: true }) sort: 'name' | 'age' | undefined, // literal union
    @Param('team', { type: () => String, nullable: true }) team: string | null, // nullable
    @Param('host', { schema: { type: 'string', format: 'hostname' } }) host: string, // raw schema
  ) {
    return { ids, sort: sort ?? 'name', team, host };
  }
}
// #endregion explicit

// #region coerce
export function createLookupApp() {
  // Accept "5" for 5 and "true" for true: for clients that send every argument as a string.
  return createApp({ name: 'lookup', version: '1.0.0', tools: [LookupTools], coerce: true });
}
// #endregion coerce
