import type { SshFileSystemOptions } from '../options.js';
import type { SshFileSystem } from '../ssh-file-system.js';
import { slowLink } from './slow-link.js';
import type { SshFixture } from './ssh-fixture.js';

/**
 * The SFTP requests a connection sends, in round trips: a request's level is one more than the highest level among
 * the answers in when it was sent (1 before any). OpenSSH's server answers a session's requests one by one, in order,
 * so the n-th answer is the n-th request's. Requests of one level went out without waiting for each other's answers.
 *
 * Exact only where the answers of two trips are never in together: on loopback they often are (chains of requests
 * run side by side, and one chain's answer comes with the one another waited for), so {@link countedConnection} puts
 * a slow link between.
 */
export class RequestLevels {
  private readonly sent: { readonly request: string; readonly level: number }[] = [];
  private answered = 0;
  private highestAnswered = 0;
  private from = 0;

  /** The options that feed it; `beforeEach` runs as each request is sent. */
  options(beforeEach?: (request: string) => void): Pick<SshFileSystemOptions, 'onRequest' | 'onAnswer'> {
    return {
      onRequest: (request) => {
        beforeEach?.(request);
        this.sent.push({ request, level: this.highestAnswered + 1 });
      },
      onAnswer: () => {
        const answered = this.sent[this.answered++];
        if (answered) this.highestAnswered = Math.max(this.highestAnswered, answered.level);
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

/**
 * Each way, the delay of the link {@link countedConnection} goes through: answers of one trip come back together, and
 * those of the next trip this much later at least, far more than a loaded machine takes to handle a batch of answers.
 */
const LINK_DELAY_MS = 15;

/** A connection to the fixture's server through a slow link, its requests counted in round trips. */
export async function countedConnection(
  ssh: SshFixture,
  root: string,
  beforeEach?: (request: string) => void,
  overrides: Partial<SshFileSystemOptions> = {},
): Promise<{ fs: SshFileSystem; levels: RequestLevels; close(): Promise<void> }> {
  const link = await slowLink(ssh.server, LINK_DELAY_MS);
  const levels = new RequestLevels();
  const counted = levels.options(beforeEach);
  const fs = await ssh.connect(root, {
    host: link.host,
    port: link.port,
    ...counted,
    ...overrides,
    onAnswer: (request) => {
      counted.onAnswer?.(request);
      overrides.onAnswer?.(request);
    },
  });
  levels.reset();
  return {
    fs,
    levels,
    async close() {
      await fs.close();
      await link.close();
    },
  };
}
