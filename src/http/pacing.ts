/**
 * How a client paces its requests: at most --concurrency in flight (Limiter, shared by all forks of
 * one client) and at most --max-rps started per second (RateLimiter, shared by a worker's clients).
 */

/** A counting semaphore shared by all forks of one client. */
export class Limiter {
  private active = 0;
  private queue: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

/** Spaces request starts so that at most `rps` start per second. */
export class RateLimiter {
  /** When the last start happened (performance.now()). */
  private last = -Infinity;
  private queue: Promise<void> = Promise.resolve();
  constructor(private readonly rps: number) {}
  /**
   * Wait for a slot: one start at a time, each at least 1/rps after the one before it actually
   * started. (Slots computed ahead of time would all start together after a pause of the event
   * loop, a burst above the rate.) `pauseUntil` pushes every later start back (a 429's Retry-After).
   */
  slot(): Promise<void> {
    const interval = 1000 / this.rps;
    const turn = this.queue.then(async () => {
      const wait = this.last + interval - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.last = performance.now();
    });
    this.queue = turn;
    return turn;
  }
  pauseUntil(t: number): void {
    this.last = Math.max(this.last, t - 1000 / this.rps);
  }
}
