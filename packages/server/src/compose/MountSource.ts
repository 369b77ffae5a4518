import type { Middleware } from '@toolwright/core';
import type { MemberLimits } from '../pipeline/ServedMember';
import type { Catalog } from '../surface/Catalog';
import type { ChangeNotifier } from '../surface/Connections';

/** What an app that mounts another reads of it: the live catalog and the settings its members run with. */
export interface MountSource {
  readonly catalog: Catalog;
  /** The mounted app's own middleware: it runs inside the parent's, around the member's. */
  readonly middleware: readonly Middleware[];
  readonly toolTimeoutMs?: number;
  readonly timeoutMs?: number;
  /** The limits its options set (`guardTimeoutMs`, `maxLogLength`, `maxUriLength`): its members keep them; the parent's fill in the rest. */
  readonly limits?: MemberLimits;
  /** Whether its members or middleware use scoped services (read live: runtime additions can turn it on). */
  readonly scopes: { readonly active: boolean };
  /** Tells `notifier` of the mounted app's list changes and resource updates. */
  addNotifier(notifier: ChangeNotifier): () => void;
}

const sources = new WeakMap<object, MountSource>();

/** Records what `createApp` built for `app`, so another app can mount it. */
export function registerMountSource(app: object, source: MountSource): void {
  sources.set(app, source);
}

/** What `app` serves, or undefined when `app` was not made by `createApp`. */
export function mountSourceOf(app: unknown): MountSource | undefined {
  return typeof app === 'object' && app !== null ? sources.get(app) : undefined;
}
