import path from 'node:path';
import {
  CallableTool,
  toolError,
  toolOk,
  type CallOptions,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import {
  applyFileChange,
  applyStreamedChange,
  choiceOption,
  readStateError,
  fileNotFoundError,
  sensitiveEditError,
  notAFileError,
  type ResolvedPath,
  openRegularFile,
  type OpenedRegularFile,
  hashBytes,
  snapshotOf,
  stampNeedsHash,
  stampOfHandle,
  type FileStamp,
  type LoggedEdit,
  unsupportedEncodingError,
  snippetCutSentence,
  introducedElision,
  EDIT_LOG,
  Briefs,
  lastSeenText,
  recordSeenText,
  normalizeLineEndings,
  positiveNumberOption,
  changedLines,
  withAnswerNote,
  type LineSnippet,
  lineSnippet,
  createTextStreamCheck,
  type ApplyOutcome,
} from '@kimi-tools/core/toolkit';
import { TOOL_ZOD } from './tool-zod.js';
import { STR_REPLACE_FILE_DESCRIPTION } from './description.js';
import {
  editFailedMessage,
  appliedPlaces,
  editFailureText,
  elidedContentError,
  largeFileEncodingError,
  notebookError,
  tooManyPlacesError,
  StrReplaceFileBriefs,
  type StrReplaceFileBrief,
} from './errors.js';
import { DEFAULT_STREAM_ABOVE_BYTES, MAX_REPLACEMENTS } from './limits.js';
import type { ApplyEditsResult } from './match/apply-edits.js';
import { editSuccessText } from './match/edit-messages.js';
import { loggedTextsToFind } from './match/replays.js';
import { MATCH_LEVELS, type EditMatch, type EditOutcome, type MatchLevel } from './match/types.js';
import { StrReplaceFileParams, type Edit } from './params.js';
import { checkStaleEdit, staleMiss } from './stale-edit.js';
import { copyWithRanges } from './window/copy-with-ranges.js';
import { needlesOf } from './window/edit-needles.js';
import { formatOfSample, type WindowFormat } from './window/file-format.js';
import { matchInWindows } from './window/match-in-windows.js';
import { scanNeedles } from './window/scan-needles.js';

import { planChange, snippetAt, type WindowPlan } from './window/window-plan.js';
import { windowsAround } from './window/window-ranges.js';
import {
  readWhole,
  readWindows,
  type EditText,
  type EditTextRefusal,
  type FileToEdit,
} from './window/window-text.js';
import { DEFAULT_WINDOW_TUNING, type WindowTuning } from './window/window-tuning.js';

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
   * Files larger than this many bytes are read in windows around the places the edits may change, found by one scan
   * of the file, and written by copying the rest chunk by chunk, in bounded memory; smaller files are read whole as one
   * window (docs/str-replace-file.md#files-read-in-windows). Default 64 MiB.
   */
  streamAboveBytes?: number;
}

/** What StrReplaceFile does with a file that changed since the read (docs/str-replace-file.md). */
export type ModifiedSinceRead = 'apply-if-unrelated' | 'refuse';

/** `extras` of a successful StrReplaceFile call. */
export interface StrReplaceFileExtras {
  /** Replacements made by all edits together. */
  replacements: number;
  /** The loosest matching level any edit needed (`exact` when every edit matched exactly). */
  matchedBy: MatchLevel;
  /** Per edit, in order: its replacements and the level that matched it. */
  edits: EditOutcome[];
  /** Present when every edit was already applied by an earlier call of this session: nothing was written. */
  alreadyApplied?: true;
}

function loosestLevel(outcomes: readonly EditOutcome[]): MatchLevel {
  let loosest = 0;
  for (const outcome of outcomes) loosest = Math.max(loosest, MATCH_LEVELS.indexOf(outcome.matchedBy));
  return MATCH_LEVELS[loosest] ?? 'exact';
}

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
    this.streamAboveBytes = positiveNumberOption(
      'StrReplaceFile',
      'streamAboveBytes',
      options.streamAboveBytes,
      DEFAULT_STREAM_ABOVE_BYTES,
    );
  }

  /** Observers' sections are collected only when the runtime has observers as the call starts. */
  protected override collectsChangeSections(): boolean {
    return this.runtime.changeObservers.size > 0;
  }

  protected override failureMessage(_params: StrReplaceFileParams, error: string): string {
    return editFailedMessage(error);
  }

  protected async execute(
    params: StrReplaceFileParams,
    options: CallOptions,
  ): Promise<ToolReturnValue<StrReplaceFileBrief>> {
    const resolved = await this.runtime.paths.resolveFile(params.path, 'edit');
    if (!resolved.ok) return resolved.error;
    const target = resolved.path;
    // Before the file is even looked at, as ReadFile does: no answer may depend on what a sensitive file holds, or a
    // model could learn it guess by guess (docs/paths.md#sensitive-files).
    if (await this.runtime.paths.isSensitive(target)) return sensitiveEditError(params.path);
    // Opened once: the path may become a FIFO at any moment, and every read and the copy go through this descriptor.
    const { fs } = this.runtime;
    const opened = await openRegularFile(fs, target.real);
    if (opened === 'missing')
      return fileNotFoundError(fs, params.path, target.absolute, this.runtime.workDir);
    if (opened === 'not-a-file') return notAFileError(params.path);
    try {
      if ([target.real, target.absolute].some((name) => path.extname(name).toLowerCase() === '.ipynb'))
        return notebookError(params.path);
      const edits: Edit[] = Array.isArray(params.edit) ? params.edit : [params.edit];
      return await this.edit(params.path, target, opened, edits, options);
    } finally {
      await opened.handle.close();
    }
  }

  /**
   * The edit of the opened file, one path whatever its size (docs/str-replace-file.md#files-read-in-windows): the file
   * read as one window (whole) or as the windows around the places the edits may change, its stamp taken before; its
   * read state; the edits matched on that text; the replay, elision and since-the-read checks; then the change planned
   * window by window, approved and written.
   */
  private async edit(
    input: string,
    target: ResolvedPath,
    opened: OpenedRegularFile,
    edits: readonly Edit[],
    options: CallOptions,
  ): Promise<ToolReturnValue<StrReplaceFileBrief>> {
    const { runtime } = this;
    const file: FileToEdit = {
      handle: opened.handle,
      size: opened.stats.size,
      tuning: this.tuning,
      signal: options.signal,
    };
    // A file up to `streamAboveBytes` is read whole, stamped on its bytes (the stats taken before them, so a change
    // while they are read makes the stamp older, never newer). A larger one is stamped on its descriptor, its stamped
    // size is what every read and the copy go by, and its windows' format is judged from its first 64 KiB; one whose
    // encoding needs the whole file to be judged is read whole when it fits in a string.
    let read: EditText | EditTextRefusal | WindowFormat;
    let stamp: FileStamp | undefined;
    // Read whole when its encoding or text needs the whole file to be judged, if it fits in a string. A file stamped on
    // its descriptor and then read whole gets its bytes' hash in its stamp: the read state and the look under the
    // lock judge exactly what is edited, as for a file read whole from the start.
    const readWholeNow = async (refusal: EditTextRefusal) => {
      const whole = file.size <= this.tuning.maxWholeBytes ? await readWhole(file) : refusal;
      if (stamp && 'decoded' in whole && stampNeedsHash(stamp))
        stamp = { ...stamp, hash: hashBytes(whole.whole!) };
      return whole;
    };
    if (file.size <= this.streamAboveBytes) {
      const stats = runtime.readBeforeWrite ? await opened.handle.stat() : undefined;
      read = await readWhole(file);
      if (stats && 'decoded' in read) stamp = snapshotOf(read.whole!, stats);
    } else {
      stamp = await stampOfHandle(opened.handle);
      file.size = stamp.size;
      const format = await formatOfSample(opened.handle, file.size);
      read = 'refused' in format ? await readWholeNow(format) : format;
    }
    if ('refused' in read) return this.refusal(input, read);

    // The text last read, when the file changed since and the edit may still apply away from the changed lines: the
    // lines are compared on the whole file.
    let base: string | undefined;
    if (stamp && runtime.readBeforeWrite) {
      const status = runtime.fileState.checkStamp(target.real, stamp);
      if (status === 'modified' && this.modifiedSinceRead === 'apply-if-unrelated')
        base = lastSeenText(runtime, target.real);
      if (status !== 'ok' && base === undefined) return readStateError(input, status);
    }
    const editLog = runtime.slot(EDIT_LOG);
    const log = editLog.edits(target.real);
    if (!('decoded' in read)) {
      read =
        base !== undefined
          ? await readWholeNow({ refused: 'changing' })
          : await this.windows(file, read, edits, log, readWholeNow);
      if ('refused' in read) return this.refusal(input, read);
    }
    const matched = await matchInWindows(file, read, edits, { mode: this.match, log });
    if ('refused' in matched) return this.refusal(input, matched);
    const { text, result } = matched;
    if (!result.ok) return this.failure(input, edits, result, base, text.decoded.text);
    if (result.alreadyApplied.length > 0) {
      // Every edit is a replay of one this session applied (a mix is an error above): nothing to ask or write.
      const snippet = snippetAt(
        text,
        result.alreadyApplied.map((edit) => edit.line),
      );
      return toolOk({
        output: snippet.output,
        message: `File unchanged: the edit(s) were already applied by an earlier call in this session (${appliedPlaces(result.alreadyApplied)}). Nothing was written.`,
        extras: { replacements: 0, matchedBy: 'exact', edits: result.edits, alreadyApplied: true },
      });
    }
    // A lazy edit (`# ... existing code ...` for real lines) would delete the user's code.
    const current = text.decoded.text;
    const replacedText = result.replacements.map(({ start, end }) => current.slice(start, end)).join('\n');
    const writtenText = result.replacements.map((replacement) => replacement.text).join('\n');
    const elided = introducedElision(replacedText, writtenText, current);
    if (elided !== undefined) return elidedContentError(elided);
    let staleNote = '';
    if (base !== undefined) {
      const stale = checkStaleEdit(input, base, current, result.replacements, runtime.diffBudgetMs);
      if (stale.kind === 'overlap') return toolError({ message: stale.message, brief: Briefs.fileModified });
      staleNote = stale.note;
    }

    const total = result.edits.reduce((sum, outcome) => sum + outcome.replacements, 0);
    const extras = { replacements: total, matchedBy: loosestLevel(result.edits), edits: result.edits };
    const shown = { path: target.real, diffBudgetMs: runtime.diffBudgetMs };
    const plan = await planChange(file, text, result, shown);
    if (plan.unchanged) {
      return toolOk({
        message: `File unchanged: the edits leave the content identical to the current file. Applied ${edits.length} edit(s) with ${total} total replacement(s).`,
        extras,
      });
    }
    const outcome = await this.write(target, file, text, result, plan, stamp, base, options);
    if (outcome.kind !== 'written') return outcome.kind === 'refused' ? outcome.result : toolOk({ extras });
    // Logged even when the user kept only some hunks: a replay is recognised by its written text standing where it
    // was written, which a rejected edit's never does.
    editLog.record(target.real, result.applied);
    // A file read whole may have been written as the user's answer shaped it; one read in windows is taken whole.
    const { newBytes, shaped } = outcome as Partial<Extract<ApplyOutcome, { kind: 'written' }>>;
    if (newBytes) recordSeenText(runtime, target.real, newBytes);
    const snippet = shaped ? this.shapedSnippet(current, shaped) : plan.snippet;
    const levels = result.edits.map((edit) => edit.matchedBy);
    return toolOk({
      // The changed places as the file now is, so the model needs no re-read to see or build on its edit.
      output: snippet.output,
      message: withAnswerNote(
        editSuccessText(levels, total) +
          staleNote +
          (snippet.unshown ? snippetCutSentence(snippet.unshown) : ''),
        outcome.note,
      ),
      display: outcome.display,
      extras,
    });
  }

  /**
   * The changed places of what was written when the user's answer shaped the change (some hunks, or their own
   * content; only a file read whole offers that): nothing for bytes that are not text.
   */
  private shapedSnippet(oldText: string, shaped: { text: string | undefined }): LineSnippet {
    if (shaped.text === undefined) return { output: '' };
    const changes = changedLines(oldText, shaped.text, this.runtime.diffBudgetMs);
    return lineSnippet(
      shaped.text,
      changes.map((change) => ({ from: change.newFrom, count: change.newCount })),
    );
  }

  /**
   * The windows of a file larger than `streamAboveBytes` (docs/str-replace-file.md#files-read-in-windows): one read of
   * the whole file checks it is text in its encoding and finds what every match of each edit holds (and the texts a
   * replay looks for), then each hit is read with the lines around it. A file whose text is not what its format said
   * is read whole when it fits in a string.
   */
  private async windows(
    file: FileToEdit,
    format: WindowFormat,
    edits: readonly Edit[],
    log: readonly LoggedEdit[],
    readWholeNow: (refusal: EditTextRefusal) => Promise<EditText | EditTextRefusal>,
  ): Promise<EditText | EditTextRefusal> {
    const needles = needlesOf(edits, loggedTextsToFind(log, edits), format, this.tuning);
    const scan = await scanNeedles(
      file.handle,
      file.size,
      needles.map((needle) => needle.bytes),
      {
        start: format.start,
        breaks: format.breaks,
        // One more than the replacements a call may make, so that `replace_all` past its budget is still seen.
        keep: MAX_REPLACEMENTS + 1,
        check: createTextStreamCheck(format.format),
        chunkBytes: this.tuning.chunkBytes,
        signal: file.signal,
      },
    );
    if (!scan.text) return readWholeNow({ refused: 'not-text' });
    const ranges = await windowsAround(file.handle, file.size, format, needles, scan.hits);
    return ranges ? readWindows(file, format, ranges) : { refused: 'too-many-places' };
  }

  /**
   * Asks for the change and writes it through core: a file read whole with its new bytes (the runtime's change
   * observers are told, and under the lock the file must still hold the bytes read), one read in windows by copying
   * it with the windows' changed bytes (under the lock it must still carry the stamp taken before the scan).
   */
  private async write(
    target: ResolvedPath,
    file: FileToEdit,
    text: EditText,
    edited: { text: string },
    plan: WindowPlan,
    stamp: FileStamp | undefined,
    base: string | undefined,
    options: CallOptions,
  ) {
    const change = { sender: this.name, verb: 'Edit', path: target } as const;
    if (plan.newBytes !== undefined) {
      return applyFileChange(
        this.runtime,
        {
          ...change,
          oldBytes: text.whole!,
          ...(stamp && { oldStamp: stamp }),
          newBytes: plan.newBytes,
          oldText: text.decoded.text,
          newText: edited.text,
          // Applied over a change since the read, the read state is stale by design; the file must still hold the
          // bytes read when it is written, so a change during the approval is refused all the same.
          checkReadState: this.runtime.readBeforeWrite && base === undefined,
        },
        options.signal,
      );
    }
    return applyStreamedChange(
      this.runtime,
      {
        ...change,
        oldStamp: stamp!,
        display: plan.display,
        newSize: plan.newSize,
        writeTo: (source, temp) =>
          copyWithRanges(source, file.size, plan.ranges, temp, {
            chunkBytes: this.tuning.chunkBytes,
            signal: options.signal,
          }),
        checkReadState: this.runtime.readBeforeWrite,
      },
      options.signal,
    );
  }

  /** The answer to a file that cannot be edited as read. */
  private refusal(input: string, refusal: EditTextRefusal): ToolReturnValue<StrReplaceFileBrief> {
    switch (refusal.refused) {
      case 'not-text':
        return unsupportedEncodingError(input);
      case 'changing':
        // Not what was stamped or checked any more: the file is being rewritten under the edit.
        return readStateError(input, 'modified');
      case 'encoding':
        return largeFileEncodingError(input, refusal.encoding);
      case 'too-many-places':
        return tooManyPlacesError(input, this.streamAboveBytes, this.tuning.maxWindowBytes);
    }
  }

  /**
   * The answer to an edit that failed. An `old` not found now but in the text last read: the change since the read
   * took it; say so, with what changed.
   */
  private failure(
    input: string,
    edits: readonly Edit[],
    result: Extract<ApplyEditsResult, { ok: false }>,
    base: string | undefined,
    current: string,
  ): ToolReturnValue<StrReplaceFileBrief> {
    const edit = edits[result.index - 1];
    if (base !== undefined && result.failure.kind === 'not-found' && edit !== undefined) {
      const old = normalizeLineEndings(edit.old);
      const miss = staleMiss(input, base, current, old, this.runtime.diffBudgetMs);
      if (miss !== undefined) return toolError({ message: miss, brief: Briefs.fileModified });
    }
    return toolError(editFailureText(result.index, result.failure));
  }
}
