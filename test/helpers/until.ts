/**
 * Polls `check` every `everyMs` (100 ms) until it answers (anything but undefined), for
 * states another process reaches without telling this one (a reload in a
 * running `chatos serve`, a process gone); fails after `timeoutMs`, naming
 * `what`. A generous deadline, never a fixed sleep.
 */
export async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    // The one poll interval in the tests (test/scripts/noSleeps.test.ts allows it here): a wait between looks, not for a time.
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
