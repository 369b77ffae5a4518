import { OnShutdown, OnStart, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { Service } from 'typedi';

// #region hooks
@Service()
export class Pool {
  connected = false;

  @OnStart()
  async connect() {
    this.connected = true; // open connections before the first request
  }

  @OnShutdown()
  async close() {
    this.connected = false; // after running calls have drained
  }
}

@Service()
export class StatusTools {
  constructor(private readonly pool: Pool) {}

  @Tool({ description: 'Whether the database pool is connected.' })
  status() {
    return this.pool.connected ? 'connected' : 'disconnected';
  }
}

export function createStatusApp() {
  return createApp({
    name: 'status',
    version: '1.0.0',
    tools: [StatusTools],
    services: [Pool], // classes with hooks that serve no tools themselves
    onStart: () => console.error('starting'),
    onShutdown: () => console.error('stopped'),
  });
}
// #endregion hooks
