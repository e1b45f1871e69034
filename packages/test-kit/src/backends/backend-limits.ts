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
 * `it.runIf(backendHas('special-files'))('refuses a FIFO', ...)`.
 */
export const BACKEND_LIMITS = {
  'special-files': {
    on: ['local', 'ssh'],
    why: 'makes a FIFO, a socket or a device with mkfifo or mknod on the disk; a workspace in memory holds none',
  },
  'other-processes': {
    on: ['local', 'ssh'],
    why: 'another program on this machine holds or changes the files; a workspace in memory is this process’s alone',
  },
  'exact-times': {
    on: ['local', 'ssh'],
    why: 'puts a modification time back to the nanosecond with touch on the disk (utimes takes seconds as a double, which cannot hold every nanosecond); over SFTP times are whole seconds, which it can',
  },
  'local-home': {
    on: ['local'],
    why: '`~` is this process’s HOME, which the test changes; another backend has a home of its own',
  },
  'local-disk': {
    on: ['local'],
    why: 'is about the local disk itself: its error codes, a small tmpfs that fills up, this process’s descriptors',
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
  'sftp-line-index': {
    on: ['ssh'],
    cause:
      'ReadFile reuses a line index for the same size and modification time where the stats have no change time or inode (SFTP): after a same-size rewrite with the time put back it shows the old lines',
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
