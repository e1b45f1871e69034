import path from 'node:path';
import { createRuntime, type ToolRuntime } from '@kimi-tools/core';
import type { FileSystemCapabilities } from '@kimi-tools/core/fs';
import type { TempWorkspace, WorkspaceRuntimeOptions } from './temp-workspace.js';
import { translatedFileSystem, type TranslatedFileSystem } from './translated-file-system.js';

/** Where {@link translatedRuntime} shows the workspace's root: its work dir is `/virtual/work`. */
export const VIRTUAL_ROOT = '/virtual';

/** A runtime whose files are a temp workspace seen through a {@link translatedFileSystem}. */
export interface TranslatedRuntime {
  runtime: ToolRuntime;
  /** The runtime's file system, with every operation it was asked. */
  files: TranslatedFileSystem;
  /** The virtual path of a path relative to the work dir (`at('a.txt')` is `/virtual/work/a.txt`). */
  at(relative: string): string;
}

/**
 * A runtime on `workspace` seen at {@link VIRTUAL_ROOT} through a {@link translatedFileSystem}: its work dir is
 * `/virtual/work`, which exists only for the runtime's file system, so a tool that touched the disk directly would
 * find nothing there. `capabilities` play another backend (`SFTP_CAPABILITIES`); the other options are
 * `createRuntime`'s, with the workspace's recording approval unless one is given.
 */
export function translatedRuntime(
  workspace: TempWorkspace,
  options: WorkspaceRuntimeOptions & { capabilities?: Partial<FileSystemCapabilities> } = {},
): TranslatedRuntime {
  const { capabilities, ...runtimeOptions } = options;
  const files = translatedFileSystem(workspace.root, VIRTUAL_ROOT, { capabilities, backend: workspace.fs });
  const workDir = path.posix.join(VIRTUAL_ROOT, path.relative(workspace.root, workspace.workDir));
  const runtime = createRuntime({
    ...runtimeOptions,
    approval: runtimeOptions.approval ?? workspace.approval,
    workDir,
    fs: files,
  });
  return {
    runtime,
    files,
    at: (relative) => path.posix.join(workDir, relative),
  };
}
