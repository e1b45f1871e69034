import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { positiveNumberOption, stringOption } from '@kimi-tools/core/toolkit';

/** Options of `createCheckpoints`. */
export interface CheckpointsOptions {
  /**
   * The store's directory, on this host's local disk whatever backend the workspace is on (default: a directory per
   * workspace under the user's state directory, {@link defaultStoreDirectory}).
   */
  dir?: string;
  /** Checkpoints kept; the oldest are pruned first (default {@link DEFAULT_MAX_COUNT}). */
  maxCount?: number;
  /** Bytes the stored contents may take on disk; the oldest checkpoints are pruned first (default 1 GiB). */
  maxBytes?: number;
  /** Files bigger than this are recorded as not restorable, their content not stored (default 64 MiB). */
  maxFileBytes?: number;
}

/** Checkpoints kept by default. */
export const DEFAULT_MAX_COUNT = 100;
/** Bytes the store may take by default: 1 GiB. */
export const DEFAULT_MAX_BYTES = 1 << 30;
/** Largest file whose content a checkpoint stores by default: 64 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 64 << 20;

/** The options with their defaults applied; throws on an invalid one. */
export interface ResolvedCheckpointsOptions {
  dir: string;
  maxCount: number;
  maxBytes: number;
  maxFileBytes: number;
}

/**
 * The default store of a workspace: `$XDG_STATE_HOME/kimi-tools/checkpoints/<hash>` (`~/.local/state` when the
 * variable is unset), where `<hash>` is the first 16 hex digits of the SHA-256 of the backend's identity (its
 * `identity`, `ssh user@host:port` over SSH, new for each in-memory workspace, else its name) and the workspace
 * directory, so two workspaces never share a store, nor the same path on two hosts or in two in-memory workspaces.
 */
export function defaultStoreDirectory(
  backend: string,
  workDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const state = env.XDG_STATE_HOME ? env.XDG_STATE_HOME : path.join(os.homedir(), '.local', 'state');
  const key = createHash('sha256').update(`${backend}\0${workDir}`).digest('hex').slice(0, 16);
  return path.join(state, 'kimi-tools', 'checkpoints', key);
}

/** Checks and completes the options of `createCheckpoints`. */
export function resolveOptions(
  options: CheckpointsOptions,
  backend: string,
  workDir: string,
): ResolvedCheckpointsOptions {
  const dir = stringOption('createCheckpoints', 'dir', options.dir);
  return {
    dir: path.resolve(dir ?? defaultStoreDirectory(backend, workDir)),
    maxCount: positiveNumberOption('createCheckpoints', 'maxCount', options.maxCount, DEFAULT_MAX_COUNT),
    maxBytes: positiveNumberOption('createCheckpoints', 'maxBytes', options.maxBytes, DEFAULT_MAX_BYTES),
    maxFileBytes: positiveNumberOption(
      'createCheckpoints',
      'maxFileBytes',
      options.maxFileBytes,
      DEFAULT_MAX_FILE_BYTES,
    ),
  };
}
