import type { TestBackendName } from './backend-names.js';
import { testBackendName } from './test-backend.js';

/** A reason in {@link BACKEND_LIMITS}: what a test needs that not every backend has. */
export interface BackendLimit {
  /** The backends that have it. */
  readonly on: readonly TestBackendName[];
  /** What the test needs, and why the other backends cannot give it. */
  readonly why: string;
}

/**
 * Why a test does not run on every backend: the one list of reasons, each with the backends that have what it needs.
 * A test is limited only when what it checks is not there to check on a backend (the local disk itself, a program on
 * this machine, a kind of file a backend cannot hold), or, for `slow`, to keep CI within its time; never to hide a
 * defect: a defect found on a backend is a {@link KNOWN_DEFECTS} entry and a failing test there.
 * `it.runIf(backendHas('disk'))('refuses a FIFO', ...)`.
 */
export const BACKEND_LIMITS = {
  disk: {
    on: ['local', 'ssh'],
    why: 'sets up what only a disk of this machine holds: a FIFO, socket or device (mkfifo, mknod), a small tmpfs that fills up, another program holding or changing the files; a workspace in memory is this process’s alone',
  },
  'exact-times': {
    on: ['local', 'ssh'],
    why: 'puts a modification time back to the nanosecond with touch on the disk (utimes takes seconds as a double, which cannot hold every nanosecond); over SFTP times are whole seconds, which it can',
  },
  'hard-links': {
    on: ['local', 'memory'],
    why: 'keeps a file with two names one file: SFTP reports no link counts, so over SSH a file is always replaced by a rename (docs/file-systems.md#capabilities)',
  },
  'this-process': {
    on: ['local'],
    why: 'needs the tools in this process on the local disk: `~` as this process’s HOME (which the test changes), its file descriptors running out, its own spawn failures, a README snippet that makes its own runtime there',
  },
  'byte-names': {
    on: ['local', 'memory'],
    why: 'names a file whose name is not UTF-8 (its bytes as escapes U+DC80–U+DCFF, docs/paths.md#names-that-are-not-utf-8): ssh2 writes every SFTP path as UTF-8 and reads every name so, so over SSH such a name cannot be carried and is refused',
  },
  'huge-files': {
    on: ['local'],
    why: 'makes a file of 50 MiB or more (a sparse one of 512 MiB): the in-memory backend holds every byte, and over SFTP each moves at loopback speed, seconds to minutes of CI, for code that is the same on every backend',
  },
  slow: {
    on: ['local'],
    why: 'takes seconds of CPU on the local disk already, through the same code on every backend: CI time',
  },
} as const satisfies Record<string, BackendLimit>;

/** Whether the run's backend has what `reason` names ({@link BACKEND_LIMITS}): `it.runIf(backendHas(...))`. */
export function backendHas(reason: keyof typeof BACKEND_LIMITS): boolean {
  return (BACKEND_LIMITS[reason].on as readonly TestBackendName[]).includes(testBackendName());
}

/** A defect a backend's run found and that is not fixed yet: the backends it shows on, and its cause. */
export interface KnownDefect {
  readonly on: readonly TestBackendName[];
  readonly cause: string;
}

/**
 * Defects the runs on the other backends found, not fixed yet. The test that shows one is expected to fail on those
 * backends (`failsWhere(it, name)`), so the run stays green, and turns red the day the defect is fixed: then the
 * entry goes.
 */
export const KNOWN_DEFECTS = {
  'sftp-hard-links': {
    on: ['ssh'],
    cause:
      'SFTP reports no link count, so a hard link to a sensitive file under a harmless name is not recognised as sensitive: the tools read and edit it',
  },
  'sftp-early-stat': {
    on: ['ssh'],
    cause:
      "the SSH backend answers an open file's first stat() with the fstat it sent when opening it: a file grown in between is seen at its old size, and StrReplaceFile refuses a file read in windows as modified instead of copying it whole",
  },
} as const satisfies Record<string, KnownDefect>;

/** `test`, or `test.fails` on a backend where {@link KNOWN_DEFECTS}' `defect` shows: `failsWhere(it, '...')('...')`. */
export function failsWhere<T extends { fails: unknown }>(
  test: T,
  defect: keyof typeof KNOWN_DEFECTS,
): T | T['fails'] {
  const known: KnownDefect = KNOWN_DEFECTS[defect];
  return known.on.includes(testBackendName()) ? test.fails : test;
}
