/** The errors already written to the app's log where they were thrown. */
const logged = new WeakSet<object>();

/**
 * Marks `error` as written to the app's log already (a refused server, see `refuseServing`): a
 * transport that catches it answers the client and does not log it again. Returns `error`.
 */
export function markLogged<E>(error: E): E {
  if (typeof error === 'object' && error !== null) logged.add(error);
  return error;
}

/** Whether `error` was written to the app's log where it was thrown (see `markLogged`). */
export function wasLogged(error: unknown): boolean {
  return typeof error === 'object' && error !== null && logged.has(error);
}
