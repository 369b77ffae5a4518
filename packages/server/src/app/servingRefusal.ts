import { ConfigError, type BuildProblem, type ToolLogger } from '@toolwright/core';
import type { Catalog } from '../surface/Catalog';
import { neededExtensionProblems } from '../extensions/neededExtensionProblems';
import { markLogged } from '../serving/loggedErrors';

/** How to fix a tool that needs the tasks extension, in an app that serves it itself. */
const OWN_FIX =
  "add `tasks()` to this app's `extensions`, or declare the tool `task: 'optional'` to let it run as a plain call. An app whose own tool it is may instead leave `tasks()` to the app that mounts it, and be served only through that one; an app that mounts such a tool lists `tasks()` itself, even when it is mounted in turn.";

interface Refusal {
  /** The message, undefined while the app may serve. */
  message(): string | undefined;
  /** Where a refused server is told of, once per message: some transports answer it with a bare 500 and log nothing. */
  readonly logger: ToolLogger;
  logged?: string;
}

/** Each app's refusal, installed by `createApp`. */
const installed = new WeakMap<object, Refusal>();

/**
 * Installs for `app` what refuses its own transports (stdio, HTTP, the fetch handler, the
 * framework adapters, the test kit: every server `createServer` makes) while it serves a tool
 * that cannot run as declared without an extension it does not serve (see
 * `neededExtensionProblems`): a `task: 'required'` tool of its own in an app without `tasks()`.
 * Such an app may still be mounted by one that serves `tasks()`: the parent makes its own
 * servers, so nothing here refuses it. (An app that mounts such a tool cannot be built without
 * `tasks()`, even when it is mounted in turn: see `prepareMounts`.) The tools are read again only after they changed (disabled tools
 * count: they may be enabled while a connection is open). `logger`: see `refuseServing`.
 */
export function installServingRefusal(app: object, appName: string, catalog: Catalog, served: ReadonlySet<string>, logger: ToolLogger): void {
  let revision = -1;
  let message: string | undefined;
  installed.set(app, {
    logger,
    message: () => {
      if (catalog.toolsRevision !== revision) {
        revision = catalog.toolsRevision;
        const problems = neededExtensionProblems(catalog.allParts().tools, served, () => `app '${appName}'`, OWN_FIX);
        message = problems.length === 0 ? undefined : refusalMessage(appName, problems);
      }
      return message;
    },
  });
}

/** Why `app` may not serve its own clients now (naming each tool and its fix), or undefined; undefined for an app `createApp` did not make. */
export function servingRefusalOf(app: object): string | undefined {
  return installed.get(app)?.message();
}

/**
 * Throws the `ConfigError` of an app that may not serve its own clients now (see
 * `servingRefusalOf`): a transport calls it before it waits for a first message. `log`: for a
 * server made per connection or request, where the transport may not log what it caught, the
 * message goes to the app's logger too, once until it changes, and the error is marked as
 * logged (see `markLogged`), so a transport that logs what it caught does not log it again.
 */
export function refuseServing(app: object, log = false): void {
  const refusal = installed.get(app);
  const message = refusal?.message();
  if (message === undefined) return;
  if (!log) throw new ConfigError(message);
  if (refusal!.logged !== message) {
    refusal!.logged = message;
    refusal!.logger.error(message);
  }
  // In the log now (or since the first refusal of the same problems): the transport that catches it logs it no more.
  throw markLogged(new ConfigError(message));
}

function refusalMessage(appName: string, problems: readonly BuildProblem[]): string {
  const lines = problems.map((p, i) => `  ${i + 1}. ${p.where}: ${p.what}\n     Fix: ${p.fix}`);
  const noun = problems.length === 1 ? 'problem' : 'problems';
  return `Toolwright: app '${appName}' cannot serve its own clients (${problems.length} ${noun}):\n${lines.join('\n')}`;
}
