/**
 * Where services read the time. The app gets one at creation; tests pass a clock they can
 * move, so expiry, locks and hourly caps are tested without waiting.
 */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** Real time plus an offset that only moves forward when told to. */
export class TestClock implements Clock {
  #offsetMs = 0

  now(): Date {
    return new Date(Date.now() + this.#offsetMs)
  }

  advance(ms: number): void {
    this.#offsetMs += ms
  }
}
