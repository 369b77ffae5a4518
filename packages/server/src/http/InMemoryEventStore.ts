import { ToolwrightError } from '@toolwright/core';
import type { JSONRPCMessage } from '../sdk/sdk';
import type { EventStore } from './EventStore';

interface StoredEvent {
  readonly seq: number;
  readonly streamId: string;
  readonly message: JSONRPCMessage;
}

/**
 * The default event store: the last `capacity` events of one session, in memory. Older
 * events fall out, so memory per session stays bounded however long the session lives;
 * a client that reconnects after its event fell out gets 400 and starts a new request.
 */
export class InMemoryEventStore implements EventStore {
  private events: StoredEvent[] = [];
  private nextSeq = 1;

  constructor(private readonly capacity = 1000) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.nextSeq++;
    this.events.push({ seq, streamId, message });
    // Trim in batches: shifting one element per event would be O(n) every time.
    if (this.events.length > this.capacity * 1.25) this.events = this.events.slice(-this.capacity);
    return String(seq);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.find(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, sink: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const last = this.find(lastEventId);
    if (!last) throw new ToolwrightError(`InMemoryEventStore: unknown event id '${lastEventId}' (evicted, or never stored here): ask getStreamIdForEventId first.`);
    for (const event of this.events) {
      // Priming events carry no message (an empty object): they are never replayed.
      if (event.seq > last.seq && event.streamId === last.streamId && 'jsonrpc' in event.message) await sink.send(String(event.seq), event.message);
    }
    return last.streamId;
  }

  close(): void {
    this.events = [];
  }

  private find(eventId: string): StoredEvent | undefined {
    const seq = Number(eventId);
    if (!Number.isSafeInteger(seq)) return undefined;
    // Events are ordered by seq: binary search.
    let lo = 0;
    let hi = this.events.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.events[mid].seq;
      if (at === seq) return this.events[mid];
      if (at < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}
