import type { Briefs, PathBrief } from '../errors.js';
import type { FileStats, OpenFile } from '../fs/file-system.js';
import { openRegularFile } from '../fs/regular-file.js';
import type { ToolReturnValue } from '../result/tool-result.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { missingFileError, notAFileError, sensitiveFileError } from './file-errors.js';
import type { RuledTool } from '../permissions/permission-rules.js';
import type { ResolvedPath } from './path-policy.js';

/** A file a model named, let through by the whole path policy and opened for reading. */
export interface FileToRead {
  /** The path in every form: `input` as the model gave it, `real` the file opened. */
  path: ResolvedPath;
  /** The open file (on the runtime's file system), read-only; the caller closes it. */
  handle: OpenFile;
  /** The stats of that open file: a regular file. */
  stats: FileStats;
}

/** The briefs {@link openFileToRead} refuses with. */
export type FileToReadBrief = PathBrief | typeof Briefs.sensitiveFile | typeof Briefs.fileNotFound;

/** What {@link openFileToRead} gives: the opened file, or the refusal to return as is. */
export type FileToReadResult =
  { ok: true; file: FileToRead } | { ok: false; error: ToolReturnValue<FileToReadBrief> };

/**
 * Opens the file a model named for a tool to read, applying every rule of docs/paths.md on the way, in ReadFile's
 * order: the path input, the workspace and the runtime's `outside` setting (verb `read`), deny globs, then sensitive
 * files (decided before the file is looked up, so the answer tells nothing of what is there), then missing and not a
 * regular file (decided on the opened descriptor, which a FIFO never blocks). Each refusal is worded as the contract
 * says, with the path as the model gave it. A tool that reads a file through this is as safe as ReadFile without a
 * line of its own; the caller closes `file.handle`. Unexpected I/O errors are thrown (`call()` words them). `tool`,
 * the tool reading: the `Did you mean` hint of a missing file names no file a `deny` rule hides from it.
 */
export async function openFileToRead(
  runtime: Pick<ToolRuntime, 'paths' | 'workDir' | 'fs' | 'permissions' | 'deny'>,
  input: string,
  tool?: RuledTool,
): Promise<FileToReadResult> {
  const resolution = await runtime.paths.resolveFile(input, 'read');
  if (!resolution.ok) return resolution;
  const path = resolution.path;
  if (await runtime.paths.isSensitive(path)) return { ok: false, error: sensitiveFileError(input) };
  const opened = await openRegularFile(runtime.fs, path.real);
  if (opened === 'missing') {
    return { ok: false, error: await missingFileError(runtime, tool, input, path.absolute) };
  }
  if (opened === 'not-a-file') return { ok: false, error: notAFileError(input) };
  return { ok: true, file: { path, handle: opened.handle, stats: opened.stats } };
}
