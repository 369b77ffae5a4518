/** Polls `check` until it holds; after `timeoutMs`, fails with `what` and the output so far. */
export async function waitFor(check: () => boolean, what: string, output: () => string, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output()}`);
  }
}
