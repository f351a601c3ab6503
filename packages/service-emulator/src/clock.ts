import type { Clock } from './types.js';

/**
 * The instants the emulator's clock may show: from the Unix epoch (OAuth 1.0a timestamps count
 * from it) to the start of year 9999, so that every timestamp on the wire keeps its four-digit
 * year while the clock runs on. Further out, Date cannot even represent some instants.
 */
export const EARLIEST_MS = Date.UTC(1970, 0, 1);
export const LATEST_MS = Date.UTC(9999, 0, 1);

export function isClockInstant(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_MS && ms <= LATEST_MS;
}

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
    const target = instant.getTime();
    if (!isClockInstant(target)) throw new RangeError(outOfRange());
    this.offsetMs = target - this.base.now().getTime();
  }

  advance(ms: number): void {
    if (!isClockInstant(this.now().getTime() + ms)) throw new RangeError(outOfRange());
    this.offsetMs += ms;
  }
}

export function outOfRange(): string {
  return `the clock must stay between ${new Date(EARLIEST_MS).toISOString()} and ${new Date(LATEST_MS).toISOString()}`;
}
