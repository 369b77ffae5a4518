import type { AccessRules, AuthInfo, Class, ProtocolEra } from '@toolwright/core';
import type { Server } from '../sdk/sdk';
import type { ChangeNotifier } from '../surface/Connections';

/** Instances that replace services for one connection's calls: `[[RealService, fake], ...]` or a Map. */
export type ServiceOverrides = ReadonlyMap<Class, unknown> | readonly (readonly [Class, unknown])[];

/** Who and what one SDK `Server` serves. */
export interface ServerSetup {
  /** A 2025-era connection (the default) or 2026-07-28 requests. */
  era?: ProtocolEra;
  /** The caller of every request it serves, when no transport names one (stdio). */
  authInfo?: AuthInfo;
  /** Instances that replace services for this server's calls only (tests). */
  overrides?: ServiceOverrides;
}

/**
 * What a transport needs of an app: SDK servers wired to it, its access rules and change
 * notices, and a say in when its shutdown hooks run. An `App` is one.
 */
export interface ServerFactory {
  /** A new SDK `Server` wired to the app, for one connection (or one request). Never share one. */
  createServer(setup?: ServerSetup): Server;
  /** The access rules of the tool served under `name` now. */
  toolAccess(name: string): AccessRules | undefined;
  /** Tells `notifier` of every list change and resource update from now on; returns the function that stops it. */
  addNotifier(notifier: ChangeNotifier): () => void;
  /**
   * A listener starts serving the app. Returns what the listener calls once it has drained
   * and closed: the app's shutdown hooks run after the last open listener's call.
   */
  openListener(): () => Promise<void>;
}
