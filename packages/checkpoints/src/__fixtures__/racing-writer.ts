import { createRuntime, yoloApproval, type FileSystem } from '@kimi-tools/core';
import { applyFileChange, decodeText, isLockFileName, type ApplyOutcome } from '@kimi-tools/core/toolkit';
import { forwardingFileSystem } from '@kimi-tools/test-kit';
import { bytesAt } from './backends.js';

/** A rewind's file system paused where its commit starts; see {@link pausedAtCommit}. */
export interface PausedAtCommit {
  fs: FileSystem;
  /** Resolves once the rewind met a lock file held by another writer, or reached its first write. */
  reached: Promise<void>;
  /** Lets the rewind's first write (a temp file of its commit) go on. */
  resume(): void;
  /** Whether the rewind found a lock file of the workspace held (and so waited for it, as every writer does). */
  readonly waitedOnLock: boolean;
}

/**
 * `fs` for a rewind racing another writer. `reached` resolves when the rewind tries to take a lock file under `root`
 * that another writer holds (it then waits, polling, as every writer does), or, should it take none, when it creates
 * its first other file there (a temp file of its commit, its checks made): that create waits for `resume()`, so what
 * the other writer does meanwhile lands between the rewind's checks and its write, as it can in a real race.
 */
export function pausedAtCommit(fs: FileSystem, root: string): PausedAtCommit {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let resume!: () => void;
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  let waitedOnLock = false;
  let wroteOnce = false;
  const paused: FileSystem = {
    ...forwardingFileSystem(fs),
    create: async (path, mode) => {
      if (!path.startsWith(`${root}/`)) return fs.create(path, mode);
      if (isLockFileName(path.slice(path.lastIndexOf('/') + 1))) {
        return fs.create(path, mode).catch((error: unknown) => {
          if ((error as { code?: string }).code === 'EEXIST') {
            waitedOnLock = true;
            reach();
          }
          throw error;
        });
      }
      if (!wroteOnce) {
        wroteOnce = true;
        reach();
        await resumed;
      }
      return fs.create(path, mode);
    },
  };
  return {
    fs: paused,
    reached,
    resume,
    get waitedOnLock() {
      return waitedOnLock;
    },
  };
}

/** A write in progress by another agent; see {@link startPausedWrite}. */
export interface PausedWrite {
  /** Resolves once the writer holds the file's lock, its checks made, just before its new content replaces the old. */
  inLock: Promise<void>;
  /** Lets the writer write and release its lock; resolves with how its write ended. */
  finish(): Promise<ApplyOutcome['kind']>;
}

/**
 * Another agent's WriteFile of `content` to `file` (absolute, in `workDir`), on a runtime of its own over `fs`,
 * through core's applyFileChange, as the write tools do (lock file, check, atomic write). It pauses inside its lock,
 * right before the rename that puts its content in place, until `finish()`.
 */
export function startPausedWrite(
  fs: FileSystem,
  workDir: string,
  file: string,
  content: string,
): PausedWrite {
  let enter!: () => void;
  const inLock = new Promise<void>((resolve) => (enter = resolve));
  let go!: () => void;
  const going = new Promise<void>((resolve) => (go = resolve));
  let target: string | undefined;
  const writerFs: FileSystem = {
    ...forwardingFileSystem(fs),
    rename: async (from, to) => {
      if (to === target) {
        enter();
        await going;
      }
      return fs.rename(from, to);
    },
  };
  const runtime = createRuntime({ workDir, approval: yoloApproval(), readBeforeWrite: false, fs: writerFs });
  const outcome = (async () => {
    const resolved = await runtime.paths.resolveFile(file, 'write');
    if (!resolved.ok) throw new Error(resolved.error.message);
    target = resolved.path.real;
    const old = await bytesAt(fs, file);
    const decoded = decodeText(old);
    return applyFileChange(runtime, {
      sender: 'WriteFile',
      verb: 'Write',
      path: resolved.path,
      oldBytes: old,
      newBytes: Buffer.from(content),
      oldText: decoded.ok ? decoded.decoded.text : '',
      newText: content,
      checkReadState: false,
    });
  })();
  // A write that fails before its lock fails the test through `inLock`'s wait and `finish()`.
  outcome.catch(() => enter());
  return {
    inLock,
    finish: async () => {
      go();
      return (await outcome).kind;
    },
  };
}

/**
 * Starts `rewind` with its file system {@link pausedAtCommit}, lets `write` (paused inside its lock) finish once the
 * rewind's commit meets it, then lets the rewind go on: how each ended.
 */
export async function raceRewind<T>(
  rewind: () => Promise<T>,
  paused: PausedAtCommit,
  write: PausedWrite,
): Promise<{ write: ApplyOutcome['kind']; rewind: T }> {
  const rewinding = rewind();
  await paused.reached;
  const written = await write.finish();
  paused.resume();
  return { write: written, rewind: await rewinding };
}
