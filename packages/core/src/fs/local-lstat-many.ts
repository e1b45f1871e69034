import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { FileStats } from './file-system.js';
import { workerThreads } from './load-on-use.js';
import { lstatEachBounded, underBase } from './lstat-many.js';

// The local disk's `lstatMany`: part of the local backend. Node's promise `lstat` costs about 15 µs of the main
// thread per call on top of the system call, three times the call itself: a walk of 60,000 paths (a checkpoint of a
// large workspace) spends a second there. Synchronous `lstat`s in worker threads cost the system call alone, in
// parallel, and leave the main thread free.

/** Below this many paths a worker's start-up (~20 ms) costs more than it saves: they go one by one. */
const WORKER_MIN_PATHS = 1024;

/** Paths per worker at least, and workers at most. */
const PATHS_PER_WORKER = 4096;
const WORKERS_MAX = 4;

/** What one path's slots hold: numbers, and the four 64-bit fields. */
const NUMBER_SLOTS = 7; // status, size, mode, nlink, uid, gid, mtimeMs
const BIGINT_SLOTS = 4; // mtimeNs, ctimeNs, ino, dev

const FOUND = 0;
const MISSING = 1;

// The worker (a CommonJS script, evaluated): lstat's each path of its share, writes what it found into the shared
// arrays, and posts `null`, or the first error other than a missing path (then the caller rejects).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { base, paths, numbers, bigints, start } = workerData;
const prefix = base.endsWith('/') ? base : base + '/';
const n = new Float64Array(numbers);
const b = new BigInt64Array(bigints);
const list = paths.split('\\0');
let failure = null;
for (let i = 0; i < list.length; i++) {
  const at = start + i;
  let s;
  try {
    s = fs.lstatSync(list[i] === '' ? base : prefix + list[i], { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    if (error && error.code === 'ENOTDIR') s = undefined;
    else { failure = { code: error && error.code, message: error && error.message }; break; }
  }
  if (s === undefined) { n[at * ${NUMBER_SLOTS}] = ${MISSING}; continue; }
  n[at * ${NUMBER_SLOTS}] = ${FOUND};
  n[at * ${NUMBER_SLOTS} + 1] = Number(s.size);
  n[at * ${NUMBER_SLOTS} + 2] = Number(s.mode);
  n[at * ${NUMBER_SLOTS} + 3] = Number(s.nlink);
  n[at * ${NUMBER_SLOTS} + 4] = Number(s.uid);
  n[at * ${NUMBER_SLOTS} + 5] = Number(s.gid);
  n[at * ${NUMBER_SLOTS} + 6] = Number(s.mtimeMs);
  b[at * ${BIGINT_SLOTS}] = s.mtimeNs;
  b[at * ${BIGINT_SLOTS} + 1] = s.ctimeNs;
  b[at * ${BIGINT_SLOTS} + 2] = s.ino;
  b[at * ${BIGINT_SLOTS} + 3] = s.dev;
}
parentPort.postMessage(failure);
`;

const S_IFMT = 0o170000;

/** Stats read back from a worker's slots: the same fields, and the same values, as the local backend's `lstat`. */
class PackedStats implements FileStats {
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  readonly dev: bigint;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;

  constructor(numbers: Float64Array, bigints: BigInt64Array, index: number) {
    const n = index * NUMBER_SLOTS;
    const b = index * BIGINT_SLOTS;
    this.size = numbers[n + 1]!;
    this.mode = numbers[n + 2]!;
    this.nlink = numbers[n + 3]!;
    this.uid = numbers[n + 4]!;
    this.gid = numbers[n + 5]!;
    this.mtimeNs = bigints[b]!;
    this.ctimeNs = bigints[b + 1]!;
    this.ino = bigints[b + 2]!;
    this.dev = bigints[b + 3]!;
    // As Node's bigint stats give it, which the local `lstat` reports: whole milliseconds.
    this.mtimeMs = numbers[n + 6]!;
  }

  private is(type: number): boolean {
    return (this.mode & S_IFMT) === type;
  }
  isFile() {
    return this.is(0o100000);
  }
  isDirectory() {
    return this.is(0o040000);
  }
  isSymbolicLink() {
    return this.is(0o120000);
  }
  isFIFO() {
    return this.is(0o010000);
  }
  isSocket() {
    return this.is(0o140000);
  }
  isCharacterDevice() {
    return this.is(0o020000);
  }
  isBlockDevice() {
    return this.is(0o060000);
  }
}

/** A worker that could not start or died: no reason to fail, the paths are stat'ed the slow way instead. */
class WorkerUnavailable extends Error {}

/** Runs one worker over `paths[start, end)`; rejects with the first error other than a missing path. */
function runWorker(
  base: string,
  paths: readonly string[],
  start: number,
  end: number,
  numbers: SharedArrayBuffer,
  bigints: SharedArrayBuffer,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new (workerThreads().Worker)(WORKER_SOURCE, {
        eval: true,
        // Not the parent's loaders and flags (a TypeScript loader would cost the worker more than its work).
        execArgv: [],
        workerData: { base, paths: paths.slice(start, end).join('\0'), numbers, bigints, start },
      });
    } catch (error) {
      reject(new WorkerUnavailable(String(error)));
      return;
    }
    worker.once('message', (failure: { code?: string; message?: string } | null) => {
      if (failure === null) resolve();
      else reject(Object.assign(new Error(failure.message ?? 'lstat failed'), { code: failure.code }));
    });
    worker.once('error', (error) => reject(new WorkerUnavailable(String(error))));
    worker.once('exit', (code) => {
      if (code !== 0) reject(new WorkerUnavailable(`The lstat worker exited with code ${code}.`));
    });
  });
}

/**
 * The local disk's `lstatMany`: the `lstat` of each path below `base`, `undefined` where nothing is (`ENOENT`, `ENOTDIR`); rejects
 * on any other error. Many paths are stat'ed synchronously in a few worker threads; few (or where no worker can
 * start) with `lstat`, a bounded number at a time.
 */
export async function lstatManyLocal(
  base: string,
  paths: readonly string[],
  lstat: (path: string) => Promise<FileStats>,
): Promise<Array<FileStats | undefined>> {
  const slowly = () => lstatEachBounded(paths, (path) => lstat(underBase(base, path)));
  if (paths.length < WORKER_MIN_PATHS) return slowly();
  const numbers = new SharedArrayBuffer(paths.length * NUMBER_SLOTS * 8);
  const bigints = new SharedArrayBuffer(paths.length * BIGINT_SLOTS * 8);
  const workers = Math.max(
    1,
    Math.min(WORKERS_MAX, os.availableParallelism(), Math.ceil(paths.length / PATHS_PER_WORKER)),
  );
  const share = Math.ceil(paths.length / workers);
  try {
    await Promise.all(
      Array.from({ length: workers }, (_, worker) =>
        runWorker(
          base,
          paths,
          worker * share,
          Math.min(paths.length, (worker + 1) * share),
          numbers,
          bigints,
        ),
      ),
    );
  } catch (error) {
    if (error instanceof WorkerUnavailable) return slowly();
    throw error;
  }
  const numberView = new Float64Array(numbers);
  const bigintView = new BigInt64Array(bigints);
  const results = new Array<FileStats | undefined>(paths.length);
  for (let index = 0; index < paths.length; index += 1) {
    results[index] =
      numberView[index * NUMBER_SLOTS] === FOUND ? new PackedStats(numberView, bigintView, index) : undefined;
  }
  return results;
}
