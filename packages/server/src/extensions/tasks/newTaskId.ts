import { randomBytes } from 'node:crypto';

/** A task id nobody can guess: 128 random bits, base64url (22 characters). */
export function newTaskId(): string {
  return randomBytes(16).toString('base64url');
}
