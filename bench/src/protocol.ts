/** What the benchmark runner and its server process say to each other over the IPC channel. */
export type ToServer =
  | { type: 'principal'; keyId: string; workspaceId: string }
  | { type: 'queries' }
  /** Marks a form's notification address verified, as following the emailed link would. */
  | { type: 'verify-notify'; formId: string }
  /** Marks an account's address confirmed, as following the link emailed at sign-up would (keys need it). */
  | { type: 'confirm-account'; email: string }
  /**
   * Writes `count` submissions to a form at once (scenario 13 exports them), as the repository
   * writes them; with `messageBytes`, each message that long (the largest values a submission takes).
   */
  | { type: 'seed-submissions'; formId: string; count: number; messageBytes?: number }
  /**
   * The live heap: collected first (the server runs with --expose-gc), so garbage not yet collected
   * is not counted; with the handles and requests Node keeps open (sockets, timers).
   */
  | { type: 'heap' }
  /**
   * A memory-reducing collection (V8's last-resort GC, as under memory pressure): garbage
   * collected and the freed heap pages given back to the system, which V8 otherwise keeps pooled.
   */
  | { type: 'collect' }
  /** Starts V8's CPU profiler in the server (`bench:profile`), so start-up and seeding stay out of the profile. */
  | { type: 'profile-start' }
  /** Stops it and writes the profile (Chrome DevTools' format) to `path`. */
  | { type: 'profile-stop'; path: string }
  /**
   * Scenario 3's second probe: refused keys as a deployed server answers them (the limit on refused
   * keys counting, at a rate the probe never reaches) and asked of the database every time (the key
   * cache suspended, as for a key not seen before); `on: false` puts the benchmark's settings back.
   */
  | { type: 'refusals-asked'; on: boolean };

export type FromServer =
  | { type: 'ready'; url: string }
  | { type: 'queries'; count: number }
  | { type: 'verified' }
  | { type: 'seeded' }
  | { type: 'heap'; bytes: number; resources: number }
  | { type: 'collected' }
  | { type: 'profiling' }
  | { type: 'profiled' }
  | { type: 'refusals-asked' };
