import { systemClock, type Clock } from './clock.js';

/** A wait that ended by its bound, told apart from a failure of the work waited on. */
export class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** The promise's outcome, or a TimeoutError once `ms` have passed on `clock` without one (the promise runs on). */
export function withTimeout<T>(promise: Promise<T>, ms: number, clock: Clock = systemClock): Promise<T> {
  let cancel = () => {};
  const deadline = new Promise<never>((_, reject) => {
    cancel = clock.after(ms, () => reject(new TimeoutError(ms)));
  });
  return Promise.race([promise, deadline]).finally(() => cancel());
}
