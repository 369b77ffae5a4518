import type { Notification } from '../sdk/sdk';

/**
 * How many progress notifications of one call may wait to be written. Past them only the
 * newest update waits, in place of any older one that waited: a client that stops reading
 * costs a bounded amount of memory, not one notification per update.
 */
export const MAX_PENDING_PROGRESS = 16;

/**
 * Sends one call's progress notifications. While `MAX_PENDING_PROGRESS` of them wait for the
 * transport to take them (a client reading slowly, or not at all), a later update waits alone,
 * replacing the one before it, and goes out when one of those is taken, if the call is still
 * `open()` then. Progress only increases, so the client still sees it increase, with the
 * updates in between left out. A failed send (a closed stream) just drops the update.
 */
export function progressSender(notify: (notification: Notification) => Promise<void>, open: () => boolean): (notification: Notification) => void {
  let pending = 0;
  let waiting: Notification | undefined;
  const taken = (): void => {
    pending -= 1;
    const next = waiting;
    waiting = undefined;
    if (next && open()) send(next);
  };
  const send = (notification: Notification): void => {
    if (pending >= MAX_PENDING_PROGRESS) {
      waiting = notification;
      return;
    }
    pending += 1;
    notify(notification).then(taken, taken);
  };
  return send;
}
