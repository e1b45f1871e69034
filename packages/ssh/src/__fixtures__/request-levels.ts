import type { SshFileSystemOptions } from '../options.js';

/**
 * The SFTP requests a connection sends, in round trips. Answers read together (handled in one synchronous run) are one
 * batch; a request sent after a batch waited for one of its answers, so its level is one more than the lowest level
 * among them (1 before any answer; the answer to a close, which nothing waits for, counts in no batch). OpenSSH's
 * server answers a session's requests one by one, in order, so the n-th answer is the n-th request's. Requests of
 * one level went out without waiting for each other's answers.
 *
 * Exact for one chain of requests, however its answers are read. Where chains run side by side, an answer of one read
 * together with the answer another waited for can make a request look sent a trip early: the levels are then at most
 * the round trips waited for. (Grouping by "an answer came in between two sends" split one trip in two whenever two
 * answers of it were read apart, which a loaded machine does.)
 */
export class RequestLevels {
  private readonly sent: { readonly request: string; readonly level: number }[] = [];
  private answered = 0;
  private highestAnswered = 0;
  /** The lowest level in the latest batch of answers, while it is taken and after. */
  private batchLowest = 0;
  private batchOpen = false;
  private from = 0;

  /** The options that feed it; `beforeEach` runs as each request is sent. */
  options(beforeEach?: (request: string) => void): Pick<SshFileSystemOptions, 'onRequest' | 'onAnswer'> {
    return {
      onRequest: (request) => {
        beforeEach?.(request);
        // Never below the request before: what one call sends, it sends in order.
        this.sent.push({ request, level: Math.max(this.sent.at(-1)?.level ?? 1, this.batchLowest + 1) });
      },
      onAnswer: () => {
        const answered = this.sent[this.answered++];
        if (!answered) return;
        this.highestAnswered = Math.max(this.highestAnswered, answered.level);
        // A close is sent when its handle is done with, and nothing waits for its answer: read together with the
        // answer a request did wait for, it would make that request look sent a trip early.
        if (answered.request === 'close') return;
        if (!this.batchOpen) {
          this.batchOpen = true;
          this.batchLowest = answered.level;
          // The answers read together come in one synchronous run; what they let go out is sent from the microtasks
          // after it.
          queueMicrotask(() => (this.batchOpen = false));
        }
        this.batchLowest = Math.min(this.batchLowest, answered.level);
      },
    };
  }

  /** Leaves out what was sent so far (its answers are still matched to it). */
  reset(): void {
    this.from = this.sent.length;
  }

  /**
   * The requests sent since the last reset, one array per round trip, in the order they were sent. Taken when a call
   * has just returned, `answered` leaves out the requests whose answers it did not wait for: sent after the last answer
   * it had.
   */
  trips({ answered = false } = {}): string[][] {
    const trips: string[][] = [];
    let level: number | undefined;
    for (const sent of this.sent.slice(this.from)) {
      if (answered && sent.level > this.highestAnswered) break;
      if (sent.level !== level) trips.push([]);
      level = sent.level;
      trips.at(-1)!.push(sent.request);
    }
    return trips;
  }
}
