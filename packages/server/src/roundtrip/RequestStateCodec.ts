import type { webcrypto } from 'node:crypto';
import { ConfigError } from '@toolwright/core';
import { MemoryUsedStateStore } from './MemoryUsedStateStore';
import { RoundTripError } from './RoundTripError';

/** How `requestState` (the state a 2026-07-28 client echoes back on each round of a call) is protected. */
export interface RequestStateOptions {
  /**
   * HMAC-SHA256 keys, at least 32 bytes each (a string's UTF-8 bytes count). The first key
   * signs; every key verifies. To rotate, put the new key first and keep the old one until
   * the states it signed have expired (`ttlMs`). Every instance behind a load balancer needs
   * the same keys. Default: one random key per process, which suits stdio and a single
   * HTTP instance.
   */
  keys?: readonly (string | Uint8Array)[];
  /** How long a round's state is accepted, in milliseconds. Default 600000 (10 minutes). */
  ttlMs?: number;
  /**
   * Where the ids of states already accepted are kept, so a state is accepted once. Default:
   * in this process, which suits stdio and a single HTTP instance; behind a load balancer,
   * give every instance one shared store (`createRedisRequestStateStore` of `@toolwright/redis`),
   * or a state replayed to another instance is accepted there until it expires.
   */
  usedStates?: UsedStateStore;
}

/** Remembers which round states were accepted (see `RequestStateOptions.usedStates`). */
export interface UsedStateStore {
  /** Records `id` as used until `expiresAt` (ms since the epoch); true if it was not used before. */
  claim(id: string, expiresAt: number): boolean | Promise<boolean>;
}

/** What a round carries to the next one: the answers so far and the questions just asked. */
export interface RoundState {
  /** Answers of earlier rounds: key -> [fingerprint of the question, the client's response]. */
  readonly answers: Readonly<Record<string, readonly [string, unknown]>>;
  /** The questions of the round that issued this state: key -> fingerprint. */
  readonly asked: Readonly<Record<string, string>>;
}

interface Sealed extends RoundState {
  /** A random id: a state is accepted once (per process, or per shared `usedStates` store). */
  readonly id: string;
  /** Expiry, in milliseconds since the epoch. */
  readonly exp: number;
}

const VERSION = 'v1';
const MIN_KEY_BYTES = 32;
const DEFAULT_TTL_MS = 600_000;
const encoder = new TextEncoder();

/**
 * Signs and verifies `requestState`. A state is bound to its request (method, name or URI,
 * arguments) and to the caller (the authenticated client id), expires after `ttlMs`, and is
 * accepted once per process: a modified, foreign, expired or replayed state is refused with a
 * `RoundTripError`. Web Crypto's HMAC (global `crypto.subtle`, constant-time verify), set up
 * on the first round: loading Web Crypto costs a few milliseconds that a server's start
 * should not pay.
 */
export class RequestStateCodec {
  /** The keys' bytes; undefined: a random key, made on first use. */
  private readonly keyBytes: Uint8Array[] | undefined;
  private importedKeys: Promise<webcrypto.CryptoKey[]> | undefined;
  private readonly ttlMs: number;
  private readonly used: UsedStateStore;

  constructor(options: RequestStateOptions = {}) {
    const raw = options.keys;
    if (raw === undefined) this.keyBytes = undefined;
    else if (raw.length === 0) throw new ConfigError('requestState.keys is empty: give at least one key of 32 bytes or more, or leave the option out for a random key per process.');
    else {
      this.keyBytes = raw.map((key, i) => {
        const b = typeof key === 'string' ? encoder.encode(key) : key;
        if (b.length < MIN_KEY_BYTES)
          throw new ConfigError(`requestState.keys[${i}] has ${b.length} bytes; an HMAC-SHA256 key needs at least ${MIN_KEY_BYTES} (e.g. 43 characters of base64 from a random source).`);
        return b;
      });
    }
    if (options.ttlMs !== undefined && !(options.ttlMs > 0)) throw new ConfigError(`requestState.ttlMs must be a positive number of milliseconds, got ${options.ttlMs}.`);
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.used = options.usedStates ?? new MemoryUsedStateStore();
  }

  /** The first key signs; every key verifies. */
  private keys(): Promise<webcrypto.CryptoKey[]> {
    this.importedKeys ??= Promise.all(
      (this.keyBytes ?? [crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES))]).map((b) => crypto.subtle.importKey('raw', b, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])),
    );
    return this.importedKeys;
  }

  /** A signed state for the next round of the request `binding` identifies. */
  async seal(state: RoundState, binding: string): Promise<string> {
    const sealed: Sealed = { id: crypto.randomUUID(), exp: Date.now() + this.ttlMs, answers: state.answers, asked: state.asked };
    const body = `${VERSION}.${Buffer.from(JSON.stringify(sealed)).toString('base64url')}`;
    const [signing] = await this.keys();
    const mac = await crypto.subtle.sign('HMAC', signing, encoder.encode(`${body}\n${binding}`));
    return `${body}.${Buffer.from(mac).toString('base64url')}`;
  }

  /** The state a client echoed, verified for the request `binding` identifies; throws `RoundTripError`. */
  async open(token: unknown, binding: string): Promise<RoundState> {
    if (typeof token !== 'string') throw new RoundTripError('requestState must be the string the server sent in its input_required result.');
    const dot = token.lastIndexOf('.');
    const body = token.slice(0, dot);
    if (dot < 0 || !body.startsWith(`${VERSION}.`))
      throw new RoundTripError('requestState is not a state this server issued. Send the requestState of the last input_required result unchanged, or start the call again without one.');
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    const data = encoder.encode(`${body}\n${binding}`);
    const keys = await this.keys();
    const verdicts = await Promise.all(keys.map((key) => crypto.subtle.verify('HMAC', key, mac, data)));
    if (!verdicts.includes(true)) {
      throw new RoundTripError(
        'requestState failed its integrity check: it was modified, belongs to another request or caller, or was signed with a key this server does not have. Start the call again without requestState.',
      );
    }
    const sealed = JSON.parse(Buffer.from(body.slice(VERSION.length + 1), 'base64url').toString('utf8')) as Sealed;
    const now = Date.now();
    if (sealed.exp <= now) throw new RoundTripError(`requestState expired ${now - sealed.exp} ms ago (a round is accepted for ${this.ttlMs} ms). Start the call again without requestState.`);
    if (!(await this.used.claim(sealed.id, sealed.exp))) {
      throw new RoundTripError('requestState was already used: each state is accepted once. Send the requestState of the last input_required result, or start the call again without one.');
    }
    return { answers: sealed.answers, asked: sealed.asked };
  }
}
