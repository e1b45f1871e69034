/** The pause before asking again while a closed channel of ours may still count on the server. */
const SETTLE_PAUSE_MS = 25;

/**
 * The `exec` channels of one connection, asked for or open. A server caps the channels of a connection (OpenSSH's
 * `MaxSessions`, 10 by default, the SFTP channel included): a program refused a channel while others of ours are
 * asked for or running waits until one of them closes, rather than failing because others happen to run.
 */
export class ExecChannels {
  #count = 0;
  #waiting: (() => void)[] = [];
  #lastClosedAt = Number.NEGATIVE_INFINITY;

  /**
   * `settleMs`: how long after one of ours closed a refusal may still be the server counting it. OpenSSH frees a
   * closed session channel a moment after it answers the close, so a program asked for right after many of ours ended
   * at once can be refused with none of ours left open (default 1000).
   */
  constructor(private readonly settleMs = 1000) {}

  /** A channel is asked for. */
  asked(): void {
    this.#count++;
  }

  /** The server refused the channel asked for. */
  refused(): void {
    this.#count--;
    // Nothing of ours is left to close: every waiter asks again now (and is refused for good if the cap is not ours).
    if (this.#count === 0) for (const wake of this.#waiting.splice(0)) wake();
  }

  /** A channel that was open closed. */
  closed(): void {
    this.#lastClosedAt = performance.now();
    this.#count--;
    this.#waiting.shift()?.();
    if (this.#count === 0) for (const wake of this.#waiting.splice(0)) wake();
  }

  /**
   * Resolves when it is worth asking again: when one of ours closes, or, with none of ours left, after a short pause
   * while the last of ours to close may still count on the server; `undefined` when nothing of ours is there to wait
   * for.
   */
  slot(): Promise<void> | undefined {
    if (this.#count > 0) return new Promise((resolve) => this.#waiting.push(resolve));
    if (performance.now() - this.#lastClosedAt < this.settleMs) {
      return new Promise((resolve) => setTimeout(resolve, SETTLE_PAUSE_MS));
    }
    return undefined;
  }
}
