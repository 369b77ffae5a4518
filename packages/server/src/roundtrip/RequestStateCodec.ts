import type { webcrypto } from 'node:crypto';
import { ConfigError } from '@toolwright/core';
import { MemoryUsedStateStore } from './MemoryUsedStateStore';
import { RoundTripError } from './RoundTripError';
import type { StateRoom } from './StateRoom';
import { stateTooLarge } from './stateTooLarge';

/** How `requestState` (the state a 2026-07-28 client echoes back on each round of a call) is protected. */
export interface RequestStateOptions {
  /**
   * Secret keys, at least 32 bytes each (a string's UTF-8 bytes count), from which the
   * AES-256-GCM keys that seal the state are derived (HKDF-SHA256). The first key seals;
   * every key opens. To rotate, put the new key first and keep the old one until the states
   * it sealed have expired (`ttlMs`). Every instance behind a load balancer needs the same
   * keys. A state is bound to the app's name (`serverInfo.name`): another app given the same
   * keys refuses it, while every instance of the app, whatever its version, accepts it.
   * Default: one random key per process, which suits stdio and a single HTTP instance.
   */
  keys?: readonly (string | Uint8Array)[];
  /** How long a round's state is accepted, in milliseconds. Default 600000 (10 minutes). */
  ttlMs?: number;
  /**
   * The most bytes a round's sealed state may take. The state carries every answer the client
   * gave so far (encrypted, at about 4/3 of their size), and the client must send it back with
   * its next answers: a round whose state would be larger fails instead, with JSON-RPC -32602
   * naming the limit and the largest answers, and the client starts the call again. Whatever
   * this says, a state is never larger than the client could send back on the transport the call
   * came in on (an HTTP endpoint's `maxBodyBytes`, a stdio line of 16 MiB, less what the retry
   * repeats: arguments, `_meta`). Set it lower when something in front of the server takes less
   * (a proxy's body limit), or to keep states small. Default: that transport's limit alone.
   */
  maxBytes?: number;
  /**
   * Where the ids of states already accepted are kept, so a state is accepted once. Default:
   * the `cluster`'s store when the app serves HTTP with one (`createRedisCluster` brings
   * one), else this process's, which suits stdio and a single HTTP instance. Behind a load
   * balancer without a cluster, give every instance one shared store
   * (`createRedisRequestStateStore` of `@toolwright/redis`), or a state replayed to another
   * instance is accepted there until it expires.
   */
  usedStates?: UsedStateStore;
}

/** Remembers which round states were accepted (see `RequestStateOptions.usedStates`). */
export interface UsedStateStore {
  /** Records `id` (a random UUID) as used until `expiresAt` (ms since the epoch); true if it was not used before. */
  claim(id: string, expiresAt: number): boolean | Promise<boolean>;
  /**
   * Set to `true` by a store every instance of the app shares (such as a Redis store), so a state
   * it claimed once is refused by all of them. A 2026-07-28 round whose state such a store claimed
   * goes on with its call (a `rateLimit` spends no token for it); without the flag, only a state
   * this process issued does, and one issued by another instance counts as a call of its own.
   * Leave it out for a store of one process.
   */
  readonly shared?: true;
}

/** What a round carries to the next one: the answers so far and the questions just asked. */
export interface RoundState {
  /** Answers of earlier rounds: key -> [fingerprint of the question, the client's response]. */
  readonly answers: Readonly<Record<string, readonly [string, unknown]>>;
  /** The questions of the round that issued this state: key -> fingerprint. */
  readonly asked: Readonly<Record<string, string>>;
}

/** A state a client echoed, as `RequestStateCodec.open` accepted it. */
export interface OpenedState extends RoundState {
  /**
   * Whether no other instance of the app can accept this state again: it was claimed in a
   * `usedStates` store that says it is shared (`UsedStateStore.shared`, such as a cluster's), or
   * this process issued it (another instance counts each run of such a state as a call). A state
   * issued by another instance and claimed in this process's store is accepted once here, and
   * once more by each instance that has not seen it (instances without a shared store).
   */
  readonly acceptedOnce: boolean;
}

interface Sealed extends RoundState {
  /** A random id (a UUID): a state is accepted once (per process, or per shared `usedStates` store). */
  readonly id: string;
  /**
   * The sealing codec's random nonce (`issuerNonce`), when it sealed the state for a store that is
   * neither this process's default nor shared: compared on open to tell a state issued here. A
   * state without it (sealed before it existed, or for another store) counts as issued elsewhere.
   */
  readonly iss?: string;
  /** Expiry, in milliseconds since the epoch. */
  readonly exp: number;
}

const VERSION = 'v2';
const MIN_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const DEFAULT_TTL_MS = 600_000;
/** The smallest `maxBytes`: a state holding a few short answers must fit. */
const MIN_MAX_BYTES = 1024;
/** HKDF's `info`: the AES key derived from a configured key serves this purpose only. */
const KEY_INFO = new TextEncoder().encode('toolwright requestState AES-256-GCM v2');
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Seals and opens `requestState`. The state is encrypted and authenticated (AES-256-GCM, a
 * random IV each time), so the answers of earlier rounds it carries (a password, a one-time
 * code a form asked for) cannot be read by whoever holds it, only echoed. It is bound, as the
 * cipher's additional data, to the app that issued it (its `serverInfo` name, see `issuer`), to
 * its request (method, name or URI, arguments) and to the caller (client and subject, see
 * `roundCaller`); it expires after `ttlMs` and is accepted once (per process, or per shared
 * `usedStates` store): a modified, foreign, expired or replayed state is refused with a
 * `RoundTripError`. Web Crypto (global `crypto.subtle`), set up on the first round: loading it
 * costs a few milliseconds that a server's start should not pay.
 */
export class RequestStateCodec {
  /** The keys' bytes; undefined: a random key, made on first use. */
  private readonly keyBytes: Uint8Array[] | undefined;
  private importedKeys: Promise<webcrypto.CryptoKey[]> | undefined;
  private readonly ttlMs: number;
  /** `maxBytes` as a room, when it is set. */
  private readonly room: StateRoom | undefined;
  private used: UsedStateStore;
  /** This codec's random nonce, sealed into states for a store that is neither this process's default nor shared (`Sealed.iss`). */
  private issuerNonce: string | undefined;
  /** Whether the app named its store (then a cluster's does not replace it). */
  private readonly ownStore: boolean;
  /** The head of every state's additional data: the format and the issuing app. */
  private readonly aadHead: string;

  /**
   * @param options the app's `requestState` option
   * @param issuer who issues the states: the app's `serverInfo` name. Two apps given the same
   *   keys refuse each other's states; instances of one app (same name, same keys) accept each
   *   other's. Not the version, so the instances of a rolling deploy keep finishing each
   *   other's rounds (an answer is reused only for the same question anyway). An app mounted in
   *   another runs with its parent's codec: its members are bound to the parent's name and
   *   their namespaced names.
   */
  constructor(options: RequestStateOptions | undefined, issuer: string) {
    // JSON-quoted: a name holding a line break cannot pass for another name followed by a binding.
    this.aadHead = `toolwright requestState ${VERSION}\nissuer:${JSON.stringify(issuer)}\n`;
    const { keys: raw, ttlMs, maxBytes, usedStates } = options ?? {};
    if (raw === undefined) this.keyBytes = undefined;
    else if (raw.length === 0) throw new ConfigError('requestState.keys is empty: give at least one key of 32 bytes or more, or leave the option out for a random key per process.');
    else {
      this.keyBytes = raw.map((key, i) => {
        const b = typeof key === 'string' ? encoder.encode(key) : key;
        if (b.length < MIN_KEY_BYTES)
          throw new ConfigError(`requestState.keys[${i}] has ${b.length} bytes; a key needs at least ${MIN_KEY_BYTES} (e.g. 43 characters of base64 from a random source).`);
        return b;
      });
    }
    if (ttlMs !== undefined && !(ttlMs > 0)) throw new ConfigError(`requestState.ttlMs must be a positive number of milliseconds, got ${ttlMs}.`);
    this.ttlMs = ttlMs ?? DEFAULT_TTL_MS;
    if (maxBytes !== undefined && !(Number.isInteger(maxBytes) && maxBytes >= MIN_MAX_BYTES))
      throw new ConfigError(`requestState.maxBytes must be an integer of at least ${MIN_MAX_BYTES} (bytes), got ${maxBytes}. Leave it out to bound states by the transport's request limit alone.`);
    this.room = maxBytes === undefined ? undefined : { bytes: maxBytes, why: `more than this server hands out (requestState.maxBytes is ${maxBytes})`, raise: 'raise requestState.maxBytes' };
    this.ownStore = usedStates !== undefined;
    this.used = usedStates ?? new MemoryUsedStateStore();
  }

  /**
   * Records accepted states in `store` from now on (a cluster's, shared by every instance),
   * unless the app named its own `usedStates`. Returns whether the store was taken.
   */
  shareUsedStates(store: UsedStateStore): boolean {
    if (this.ownStore) return false;
    this.used = store;
    return true;
  }

  /** The first key seals; every key opens. Each is an AES-256-GCM key derived from a configured key with HKDF-SHA256. */
  private keys(): Promise<webcrypto.CryptoKey[]> {
    this.importedKeys ??= Promise.all(
      (this.keyBytes ?? [crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES))]).map(async (b) => {
        const secret = await crypto.subtle.importKey('raw', b, 'HKDF', false, ['deriveKey']);
        return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: KEY_INFO }, secret, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      }),
    );
    return this.importedKeys;
  }

  /**
   * A sealed state for the next round of the request `binding` identifies. A state that carries
   * answers and would be larger than `maxBytes`, or than `retry` (the room the client's retry has
   * for it, when its transport limits requests), is refused with a `RoundTripError` naming the
   * limit and the largest answers, before anything is encrypted.
   */
  async seal(state: RoundState, binding: string, retry?: () => StateRoom): Promise<string> {
    const exp = Date.now() + this.ttlMs;
    // This process's store remembers the states it issued until they are answered; any other store, those it was asked to claim.
    const used = this.used;
    const local = !(used instanceof MemoryUsedStateStore) && used.shared !== true;
    const id = used instanceof MemoryUsedStateStore ? used.issue(exp) : crypto.randomUUID();
    const sealed: Sealed = local ? { id, iss: (this.issuerNonce ??= crypto.randomUUID()), exp, answers: state.answers, asked: state.asked } : { id, exp, answers: state.answers, asked: state.asked };
    const plain = encoder.encode(JSON.stringify(sealed));
    if ((this.room || retry) && Object.keys(state.answers).length > 0) {
      const bytes = sealedLength(plain.length);
      // The tighter bound is the one the refusal names.
      const room = [this.room, retry?.()].filter((r): r is StateRoom => r !== undefined).reduce((least, r) => (r.bytes < least.bytes ? r : least));
      if (bytes > room.bytes) throw stateTooLarge(state.answers, bytes, room);
    }
    const [key] = await this.keys();
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const box = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: this.additionalData(binding), tagLength: TAG_BYTES * 8 }, key, plain);
    return `${VERSION}.${Buffer.concat([iv, new Uint8Array(box)]).toString('base64url')}`;
  }

  /** The state a client echoed, opened for the request `binding` identifies; throws `RoundTripError`. */
  async open(token: unknown, binding: string): Promise<OpenedState> {
    if (typeof token !== 'string') throw new RoundTripError('requestState must be the string the server sent in its input_required result.');
    const bytes = token.startsWith(`${VERSION}.`) ? strictBase64url(token.slice(VERSION.length + 1)) : undefined;
    if (!bytes || bytes.length < IV_BYTES + TAG_BYTES)
      throw new RoundTripError('requestState is not a state this server issued. Send the requestState of the last input_required result unchanged, or start the call again without one.');
    const iv = bytes.subarray(0, IV_BYTES);
    const box = bytes.subarray(IV_BYTES);
    const aad = this.additionalData(binding);
    let sealed: Sealed | undefined;
    for (const key of await this.keys()) {
      try {
        const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: aad, tagLength: TAG_BYTES * 8 }, key, box);
        sealed = JSON.parse(decoder.decode(plain)) as Sealed;
        break;
      } catch {
        // Not this key (or not this app, request or caller, or modified): try the next.
      }
    }
    if (!sealed) {
      throw new RoundTripError(
        'requestState failed its integrity check: it was modified, belongs to another request or caller, was issued by another server, or was sealed with a key this server does not have. Start the call again without requestState.',
      );
    }
    const now = Date.now();
    if (sealed.exp <= now) throw new RoundTripError(`requestState expired ${now - sealed.exp} ms ago (a round is accepted for ${this.ttlMs} ms). Start the call again without requestState.`);
    const used = this.used;
    if (!(await used.claim(sealed.id, sealed.exp))) {
      throw new RoundTripError('requestState was already used: each state is accepted once. Send the requestState of the last input_required result, or start the call again without one.');
    }
    const acceptedOnce = used.shared === true || this.issuedHere(sealed);
    return { answers: sealed.answers, asked: sealed.asked, acceptedOnce };
  }

  /** Whether this codec (this process) issued the state: its id is one this process's default store issued, or it carries this codec's nonce. */
  private issuedHere(sealed: Sealed): boolean {
    const used = this.used;
    if (used instanceof MemoryUsedStateStore && used.issuedHere(sealed.id)) return true;
    return this.issuerNonce !== undefined && sealed.iss === this.issuerNonce;
  }

  /** The cipher's additional data: what the state is bound to (this app, then `binding`), authenticated but not carried. */
  private additionalData(binding: string): Uint8Array {
    return encoder.encode(`${this.aadHead}${binding}`);
  }
}

/** The length of the state `seal` writes for `plainBytes` bytes of JSON: the version, the IV, the ciphertext and its tag in unpadded base64url. */
function sealedLength(plainBytes: number): number {
  return VERSION.length + 1 + Math.ceil(((IV_BYTES + plainBytes + TAG_BYTES) * 4) / 3);
}

/**
 * The bytes of `text` when it is exactly their unpadded base64url, as `seal` writes it; else
 * undefined. Node's decoder skips characters outside the alphabet, padding and a trailing
 * partial character, so a state with a character added, padded or re-encoded as base64 would
 * otherwise open as the one the server issued.
 */
function strictBase64url(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}
