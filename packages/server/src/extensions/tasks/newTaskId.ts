/**
 * A task id nobody can guess: 128 random bits, base64url (22 characters). Web Crypto's global,
 * read at call time: importing `node:crypto` would cost every server's startup.
 */
export function newTaskId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url');
}
