/**
 * Wait for a condition in a test: poll `fn` until it returns a truthy value or the deadline passes.
 * Tests only (the product never polls); every wait has a deadline and says what it waited for.
 */
export interface WaitOptions {
  timeout?: number;
  interval?: number;
  /** What was awaited, for the failure message. */
  what?: string;
}

export async function waitFor<T>(fn: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const timeout = options.timeout ?? 10_000;
  const interval = options.interval ?? 25;
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeout} ms waiting for ${options.what ?? 'a condition'} (last: ${detail})`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
