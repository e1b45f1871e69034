import { Worker } from 'node:worker_threads';
import {
  MATCHER_WORKER_SOURCE,
  type MatcherOptions,
  type WorkerAnswer,
  type WorkerRequest,
} from './file-matcher.js';

/** Thrown to every file still waiting when the search is stopped (timeout, abort, output limit). */
export class SearchStopped extends Error {
  constructor() {
    super('The search was stopped.');
  }
}

/** Idle workers a Grep keeps for its next searches: starting a thread costs tens of milliseconds. */
const KEPT_IDLE = 1;

/**
 * The worker thread that matches the files of a portable search. A regular expression that backtracks for ever is
 * stopped with the thread: {@link stop} ends it at once, whatever it is running. A search that ended normally gives
 * its worker back to the {@link MatcherWorkers} it came from.
 */
export class MatcherWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve: (answer: WorkerAnswer) => void; reject: (error: Error) => void }
  >();
  private failure: Error | undefined;
  private nextId = 0;

  constructor() {
    this.worker = new Worker(MATCHER_WORKER_SOURCE, { eval: true });
    this.worker.on('message', (answer: WorkerAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      waiter?.resolve(answer);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new SearchStopped()));
  }

  /** Whether it can serve another search (it was never stopped and never failed). */
  get usable(): boolean {
    return this.failure === undefined;
  }

  /** Keeps the process alive while it works for a search; an idle one does not. */
  hold(held: boolean): void {
    if (held) this.worker.ref();
    else this.worker.unref();
  }

  /** Starts a file; `explicit`: named by the search rather than met in a directory. Returns its id. */
  open(options: MatcherOptions, path: string, explicit: boolean): number {
    const id = this.nextId++;
    if (!this.failure)
      this.worker.postMessage({ type: 'open', id, options, path, explicit } satisfies WorkerRequest);
    return id;
  }

  /** The next bytes of a file (handed over to the worker: the caller must not use them again). */
  data(id: number, bytes: Uint8Array): Promise<WorkerAnswer> {
    return this.ask({ type: 'data', id, bytes }, [bytes.buffer as ArrayBuffer]);
  }

  /** The end of a file: the rest of its output. */
  end(id: number): Promise<WorkerAnswer> {
    return this.ask({ type: 'end', id });
  }

  /** Ends the thread at once; every file still waiting gets {@link SearchStopped}. */
  stop(): void {
    this.fail(new SearchStopped());
    void this.worker.terminate();
  }

  private ask(
    request: Extract<WorkerRequest, { type: 'data' | 'end' }>,
    transfer: ArrayBuffer[] = [],
  ): Promise<WorkerAnswer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      this.worker.postMessage(request, transfer);
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.failure);
    this.waiting.clear();
  }
}

/**
 * The matcher workers of one Grep: a search takes an idle one (or starts one), and gives it back when it ended
 * normally; one stopped mid-search is gone. Searches at once each have their own.
 */
export class MatcherWorkers {
  private readonly idle: MatcherWorker[] = [];

  take(): MatcherWorker {
    let worker = this.idle.pop();
    // One that ended while idle (it never should) is not taken.
    while (worker !== undefined && !worker.usable) worker = this.idle.pop();
    worker ??= new MatcherWorker();
    worker.hold(true);
    return worker;
  }

  giveBack(worker: MatcherWorker): void {
    if (!worker.usable) return;
    if (this.idle.length >= KEPT_IDLE) {
      worker.stop();
      return;
    }
    worker.hold(false);
    this.idle.push(worker);
  }
}
