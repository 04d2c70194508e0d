/**
 * Resolves with what `probe` finds once it finds something (anything but undefined, null or
 * false; it may be async); fails after `ms`. Asserts the condition, never the time it took: the
 * limit is sized for a loaded machine.
 */
export async function until<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
