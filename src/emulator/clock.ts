import type { Clock } from './types.js';

/**
 * A clock that follows a base clock at an adjustable offset. Tests move it (through the control
 * plane or directly) to expire authorization codes or date expenses without waiting; time keeps
 * flowing after a jump, so ordering by "now" stays meaningful.
 */
export class ControllableClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: Clock) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }

  /** Jumps to the given instant; the clock keeps running from there. */
  set(instant: Date): void {
    this.offsetMs = instant.getTime() - this.base.now().getTime();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
