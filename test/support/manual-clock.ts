import type { Clock } from '../../shared/platform/async/clock.js';

export interface ManualTimer {
  /** The bound the code asked for. */
  ms: number;
  due: number;
  state: 'pending' | 'fired' | 'cancelled';
  callback: () => void;
}

/**
 * A clock that moves only when the test moves it: a wait ends by its bound only when the test
 * says that bound has passed, so the test asserts which bound the code set, never the wall time.
 */
export class ManualClock implements Clock {
  private time = 0;
  /** Every timer set, in order, whatever became of it. */
  readonly timers: ManualTimer[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, callback: () => void): () => void {
    const timer: ManualTimer = { ms, due: this.time + ms, state: 'pending', callback };
    this.timers.push(timer);
    return () => {
      if (timer.state === 'pending') timer.state = 'cancelled';
    };
  }

  pending(): ManualTimer[] {
    return this.timers.filter((timer) => timer.state === 'pending');
  }

  /** Moves the time on by `ms` and fires, in order, the timers then due. */
  advance(ms: number): void {
    this.time += ms;
    for (const timer of [...this.timers].sort((a, b) => a.due - b.due)) {
      if (timer.state !== 'pending' || timer.due > this.time) continue;
      timer.state = 'fired';
      timer.callback();
    }
  }
}
