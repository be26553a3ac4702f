/**
 * The time that code which waits reads: the system's in the service, a test's own in tests, so a
 * test asserts the bound a wait was given rather than how long the machine took to get there.
 */
export interface Clock {
  now(): number;
  /**
   * Calls `callback` once `ms` have passed, unless the function returned is called first. The
   * timer holds no process open: whatever waits on it holds its own connection or request.
   */
  after(ms: number, callback: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms).unref();
    return () => clearTimeout(timer);
  },
};
