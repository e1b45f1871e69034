import path from 'node:path';
import { CallableTool, type CallOptions, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';
import {
  choiceOption,
  EDIT_LOG,
  missingFileError,
  notAFileError,
  openRegularFile,
  positiveNumberOption,
  sensitiveEditError,
} from '@kimi-tools/core/toolkit';
import { STR_REPLACE_FILE_DESCRIPTION } from './description.js';
import { readEditText } from './edit/read-edit-text.js';
import {
  editFailedMessage,
  notebookError,
  StrReplaceFileBriefs,
  type StrReplaceFileBrief,
} from './errors.js';
import { DEFAULT_STREAM_ABOVE_BYTES, MAX_EDIT_FILE_BYTES } from './limits.js';
import type { EditMatch } from './match/types.js';
import { StrReplaceFileParams } from './params.js';
import { TOOL_ZOD } from './tool-zod.js';
import { DEFAULT_WINDOW_TUNING, type WindowTuning } from './window/window-tuning.js';

export type { StrReplaceFileExtras } from './edit/edit-call.js';

/** Options of {@link StrReplaceFile}. */
export interface StrReplaceFileOptions {
  /** `unique` (default) refuses an edit whose old string matches more than once; `first` edits the first match. */
  match?: EditMatch;
  /**
   * A file changed since it was read: `apply-if-unrelated` (default) applies an edit whose lines did not change,
   * `refuse` refuses every edit with `File modified`, as before.
   */
  modifiedSinceRead?: ModifiedSinceRead;
  /**
   * Files larger than this many bytes (and any file too large for a string) are read in windows around the places the
   * edits may change, found by one scan of the file, and written by copying the rest chunk by chunk, in bounded
   * memory; smaller files are read whole as one window (docs/str-replace-file.md#files-read-in-windows). Default 64 MiB.
   */
  streamAboveBytes?: number;
}

/** What StrReplaceFile does with a file that changed since the read (docs/str-replace-file.md). */
export type ModifiedSinceRead = 'apply-if-unrelated' | 'refuse';

/**
 * StrReplaceFile (docs/str-replace-file.md): replaces exact text in an existing file, one edit or an ordered list of them,
 * all-or-nothing, with unique matches, byte-exact preservation of everything else, approval and atomic write.
 */
export class StrReplaceFile extends CallableTool<typeof StrReplaceFileParams, StrReplaceFileBrief> {
  readonly name = 'StrReplaceFile';
  readonly description = STR_REPLACE_FILE_DESCRIPTION;
  readonly params = StrReplaceFileParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = StrReplaceFileBriefs.failed;
  override readonly access = 'edit';
  protected override readonly pathParameters = ['path'];

  private readonly match: EditMatch;
  private readonly modifiedSinceRead: ModifiedSinceRead;
  private readonly streamAboveBytes: number;

  /**
   * Creates the tool for one runtime; throws on an invalid option. `tuning`: the sizes a file is read in windows with
   * (tests pass small ones, so window edges fall inside a few bytes).
   */
  constructor(
    private readonly runtime: ToolRuntime,
    options: StrReplaceFileOptions = {},
    private readonly tuning: WindowTuning = DEFAULT_WINDOW_TUNING,
  ) {
    super(runtime);
    this.match = choiceOption('StrReplaceFile', 'match', options.match, ['unique', 'first'], 'unique');
    this.modifiedSinceRead = choiceOption(
      'StrReplaceFile',
      'modifiedSinceRead',
      options.modifiedSinceRead,
      ['apply-if-unrelated', 'refuse'],
      'apply-if-unrelated',
    );
    this.streamAboveBytes = Math.min(
      positiveNumberOption(
        'StrReplaceFile',
        'streamAboveBytes',
        options.streamAboveBytes,
        DEFAULT_STREAM_ABOVE_BYTES,
      ),
      MAX_EDIT_FILE_BYTES,
    );
  }

  /** Observers' sections are collected only when the runtime has observers as the call starts. */
  protected override collectsChangeSections(): boolean {
    return this.runtime.changeObservers.size > 0;
  }

  protected override failureMessage(_params: StrReplaceFileParams, error: string): string {
    return editFailedMessage(error);
  }

  /**
   * The checks before the file is read (docs/str-replace-file.md#checks-in-order), then the edit, one path whatever the
   * file's size, in steps that each hand on to the next: the file read and its read state judged
   * (edit/read-edit-text.ts), the windows of a larger file read (window/window-text.ts), the edits matched
   * (window/match-in-windows.ts) and judged (edit/judge-match.ts), the change planned (window/window-plan.ts), then
   * approved and written (edit/write-edit.ts).
   */
  protected async execute(
    params: StrReplaceFileParams,
    options: CallOptions,
  ): Promise<ToolReturnValue<StrReplaceFileBrief>> {
    const { runtime } = this;
    const resolved = await runtime.paths.resolveFile(params.path, 'edit');
    if (!resolved.ok) return resolved.error;
    const target = resolved.path;
    // Before the file is even looked at, as ReadFile does: no answer may depend on what a sensitive file holds, or a
    // model could learn it guess by guess (docs/paths.md#sensitive-files).
    if (await runtime.paths.isSensitive(target)) return sensitiveEditError(params.path);
    // Opened once: the path may become a FIFO at any moment, and every read and the copy go through this descriptor.
    const opened = await openRegularFile(runtime.fs, target.real);
    if (opened === 'missing') return missingFileError(runtime, this, params.path, target.absolute);
    if (opened === 'not-a-file') return notAFileError(params.path);
    try {
      if ([target.real, target.absolute].some((name) => path.extname(name).toLowerCase() === '.ipynb'))
        return notebookError(params.path);
      return await readEditText({
        runtime,
        sender: this.name,
        input: params.path,
        target,
        file: { handle: opened.handle, size: opened.stats.size, tuning: this.tuning, signal: options.signal },
        edits: Array.isArray(params.edit) ? params.edit : [params.edit],
        mode: this.match,
        applyIfUnrelated: this.modifiedSinceRead === 'apply-if-unrelated',
        streamAboveBytes: this.streamAboveBytes,
        log: runtime.slot(EDIT_LOG).edits(target.real),
        signal: options.signal,
      });
    } finally {
      await opened.handle.close();
    }
  }
}
