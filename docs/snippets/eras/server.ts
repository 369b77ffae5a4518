import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { TripTools } from './trip.tools';

// #region app
export function createTripApp(env: NodeJS.ProcessEnv = process.env) {
  return createApp({
    name: 'trips',
    version: '1.0.0',
    tools: [TripTools],
    // Signs the state a 2026-07-28 client echoes between rounds. Every instance needs the same
    // keys; to rotate, put the new key first and drop the old one once ttlMs has passed.
    requestState: { keys: [env.STATE_KEY!, ...(env.OLD_STATE_KEY ? [env.OLD_STATE_KEY] : [])] },
  });
}
// then `app.listen(parseListenArgs())`: stdio, or --http, both eras on one endpoint
// #endregion app
