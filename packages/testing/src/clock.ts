export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

/** A clock that moves only when told: expiry is reached by turning it, never by waiting. */
export interface TestClock {
  now: () => Date;
  set(at: Date): void;
  advance(ms: number): void;
}

/** Give its `now` to what decides by the time (a server's `config.now`, the api's `testServices({ now })`). */
export function testClock(start = new Date()): TestClock {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    set: (date) => {
      at = date.getTime();
    },
    advance: (ms) => {
      at += ms;
    },
  };
}
