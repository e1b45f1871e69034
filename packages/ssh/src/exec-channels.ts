/**
 * The `exec` channels of one connection, asked for or open. A server caps the channels of a connection (OpenSSH's
 * `MaxSessions`, 10 by default, the SFTP channel included): a program refused a channel while others of ours are
 * asked for or running waits until one of them closes, rather than failing because others happen to run.
 */
export class ExecChannels {
  #count = 0;
  #waiting: (() => void)[] = [];

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
    this.#count--;
    this.#waiting.shift()?.();
    if (this.#count === 0) for (const wake of this.#waiting.splice(0)) wake();
  }

  /** Resolves when it is worth asking again; `undefined` when nothing of ours is there to wait for. */
  slot(): Promise<void> | undefined {
    if (this.#count === 0) return undefined;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}
