/**
 * Tells when a session's server has answered nothing for `limitMs` while requests waited for their answers. The clock
 * runs only while a request waits, and starts again with every answer: a server answers a session's requests in the
 * order they were sent, so on a slow link a request queued behind many others waits as long as they take, while the
 * answers before it keep coming. Only a server that stopped answering (its process frozen, a file system that hangs
 * it) lets the limit pass. The timer never keeps the process running.
 */
export class AnswerDeadline {
  #waiting = 0;
  #timer: NodeJS.Timeout | undefined;
  #passed = false;

  constructor(
    private readonly limitMs: number,
    private readonly onPassed: () => void,
  ) {}

  /** A request was sent: it waits for its answer. */
  sent(): void {
    if (this.#passed || this.#waiting++ > 0) return;
    this.#timer = setTimeout(() => {
      this.#passed = true;
      this.#timer = undefined;
      this.onPassed();
    }, this.limitMs);
    this.#timer.unref();
  }

  /** A request got its answer (or failed otherwise): the server is still answering. */
  answered(): void {
    if (this.#passed || this.#waiting === 0) return;
    if (--this.#waiting > 0) this.#timer?.refresh();
    else {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }
}
