import { systemClock, type Clock } from './clock.js';

/** The promise's outcome, or a rejection once `ms` have passed on `clock` without one (the promise runs on). */
export function withTimeout<T>(promise: Promise<T>, ms: number, clock: Clock = systemClock): Promise<T> {
  let cancel = () => {};
  const deadline = new Promise<never>((_, reject) => {
    cancel = clock.after(ms, () => reject(new Error(`no answer within ${ms} ms`)));
  });
  return Promise.race([promise, deadline]).finally(() => cancel());
}
