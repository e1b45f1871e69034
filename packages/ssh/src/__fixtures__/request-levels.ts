import type { SshFileSystemOptions } from '../options.js';

/**
 * The SFTP requests a connection sends, in round trips. Answers taken in one turn of the event loop are one batch; a
 * request sent after a batch waited for one of its answers, so its level is one more than the lowest level among
 * them (the level of a request sent before any answer is 1). OpenSSH's server answers a session's requests one by
 * one, in order, so the n-th answer is the n-th request's. Requests of one level went out without waiting for each
 * other's answers.
 *
 * Timing cannot split or merge levels: grouping by "an answer came in between two sends" split one round trip in two
 * on a loaded machine, where two answers of one trip were read apart; and "one more than the highest level answered"
 * did when the answer a request waited for was read together with the answer to a request sent just after it.
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
        if (!this.batchOpen) {
          this.batchOpen = true;
          this.batchLowest = answered.level;
          setImmediate(() => (this.batchOpen = false));
        }
        this.batchLowest = Math.min(this.batchLowest, answered.level);
        this.highestAnswered = Math.max(this.highestAnswered, answered.level);
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
