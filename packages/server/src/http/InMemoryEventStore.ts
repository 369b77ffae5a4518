import { ToolwrightError } from '@toolwright/core';
import type { JSONRPCMessage } from '../sdk/sdk';
import type { EventBudget } from './EventBudget';
import type { EventStore } from './EventStore';

interface StoredEvent {
  readonly seq: number;
  readonly streamId: string;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
}

/** How much one `InMemoryEventStore` keeps. */
export interface InMemoryEventStoreOptions {
  /** Events kept; older ones fall out. Default 1000. */
  maxEvents?: number;
  /** Bytes of events kept (their JSON); older ones fall out, and an event bigger than this alone is sent but not kept. Default 4 MiB. */
  maxBytes?: number;
  /** The bytes this store shares with the other sessions' stores (see `EventBudget`). Default: none, only `maxBytes`. */
  budget?: EventBudget;
}

export const DEFAULT_EVENT_LIMITS = { maxEvents: 1000, maxBytes: 4 * 1024 * 1024, maxBytesTotal: 64 * 1024 * 1024 } as const;

/**
 * The default event store: the last events of one session, in memory, within a count and a
 * byte size (and, with a shared `budget`, within what all sessions keep together). Older
 * events fall out, so memory per session stays bounded however long the session lives and
 * however big its messages are; a client that reconnects after its event fell out gets 400
 * and starts a new request.
 */
export class InMemoryEventStore implements EventStore {
  /** Kept events in order from `head`; slots before it are emptied, so a dropped message is freed at once. */
  private events: (StoredEvent | undefined)[] = [];
  /** The index of the oldest event kept: events before it have fallen out. */
  private head = 0;
  private nextSeq = 1;
  private bytes = 0;
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly budget: EventBudget | undefined;

  /** `options`: a number is `maxEvents` (the earlier signature). */
  constructor(options: number | InMemoryEventStoreOptions = {}) {
    const limits = typeof options === 'number' ? { maxEvents: options } : options;
    this.maxEvents = limits.maxEvents ?? DEFAULT_EVENT_LIMITS.maxEvents;
    this.maxBytes = limits.maxBytes ?? DEFAULT_EVENT_LIMITS.maxBytes;
    this.budget = limits.budget;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.nextSeq++;
    const bytes = Buffer.byteLength(JSON.stringify(message));
    this.events.push({ seq, streamId, message, bytes });
    this.grow(bytes);
    this.trim();
    return String(seq);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.find(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, sink: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const last = this.find(lastEventId);
    if (!last) throw new ToolwrightError(`InMemoryEventStore: unknown event id '${lastEventId}' (evicted, or never stored here): ask getStreamIdForEventId first.`);
    for (let i = this.head; i < this.events.length; i++) {
      const event = this.events[i]!;
      // Priming events carry no message (an empty object): they are never replayed.
      if (event.seq > last.seq && event.streamId === last.streamId && 'jsonrpc' in event.message) await sink.send(String(event.seq), event.message);
    }
    return last.streamId;
  }

  close(): void {
    this.grow(-this.bytes);
    this.events = [];
    this.head = 0;
  }

  private grow(bytes: number): void {
    this.bytes += bytes;
    if (this.budget) this.budget.used += bytes;
  }

  /** Drops the oldest events past the count, this store's bytes or the shared budget (the newest too, if it alone is too big). */
  private trim(): void {
    const overBudget = () => this.budget !== undefined && this.budget.used > this.budget.maxBytes;
    while (this.head < this.events.length && (this.events.length - this.head > this.maxEvents || this.bytes > this.maxBytes || overBudget())) {
      this.grow(-this.events[this.head]!.bytes);
      this.events[this.head++] = undefined;
    }
    // Compact now and then: shifting one element per event would be O(n) every time.
    if (this.head > 64 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  private find(eventId: string): StoredEvent | undefined {
    const seq = Number(eventId);
    if (!Number.isSafeInteger(seq)) return undefined;
    // Events are ordered by seq: binary search.
    let lo = this.head;
    let hi = this.events.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const event = this.events[mid]!;
      if (event.seq === seq) return event;
      const at = event.seq;
      if (at < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}
