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
  choiceOption,
  encodeChange,
  readStateError,
  missingFileError,
  sensitiveEditError,
  notAFileError,
  type ResolvedPath,
  openRegularFile,
  readHandleUpTo,
  snapshotOf,
  type FileStamp,
  unsupportedEncodingError,
  lineSnippet,
  replacementLineSpans,
  snippetCutSentence,
  introducedElision,
  EDIT_LOG,
  Briefs,
  lastSeenText,
  recordSeenText,
  normalizeLineEndings,
  decodeText,
  positiveNumberOption,
  changedLines,
  withAnswerNote,
  type ApplyOutcome,
  type LineSnippet,
  type TextReplacement,
} from '@kimi-tools/core/toolkit';
import { TOOL_ZOD } from './tool-zod.js';
import { STR_REPLACE_FILE_DESCRIPTION } from './description.js';
import {
  editFailedMessage,
  appliedPlaces,
  editFailureText,
  elidedContentError,
  notebookError,
  StrReplaceFileBriefs,
  type StrReplaceFileBrief,
} from './errors.js';
import { DEFAULT_STREAM_ABOVE_BYTES, MAX_EDIT_FILE_BYTES } from './limits.js';
import { editStreamed, FALL_BACK } from './stream/edit-streamed.js';
import { applyEdits } from './match/apply-edits.js';
import { editSuccessText } from './match/edit-messages.js';
import { MATCH_LEVELS, type EditMatch, type EditOutcome, type MatchLevel } from './match/types.js';
import { StrReplaceFileParams, type Edit } from './params.js';
import { checkStaleEdit, staleMiss } from './stale-edit.js';

/** The file's bytes as read for an edit, and their stamp when read-before-write is on. */
interface TargetRead {
  bytes: Uint8Array;
  stamp: FileStamp | undefined;
}

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
   * Files larger than this many bytes are edited by streaming: one exact edit found and written chunk by chunk, in
   * bounded memory (docs/str-replace-file.md#files-too-large-for-memory). Default 64 MiB. Files over
   * {@link MAX_EDIT_FILE_BYTES} are always streamed; below that, what streaming does not do falls back to the
   * in-memory path.
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

  /** Creates the tool for one runtime; throws on an invalid option. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: StrReplaceFileOptions = {},
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

    const edits: Edit[] = Array.isArray(params.edit) ? params.edit : [params.edit];
    const read = await this.readTarget(params.path, target, edits, options);
    if (!('bytes' in read)) return read;
    const { bytes: oldBytes, stamp: oldStamp } = read;
    const decoded = decodeText(oldBytes);
    if (!decoded.ok) return unsupportedEncodingError(params.path);

    // The text last read, when the file changed since and the edit may still apply away from the changed lines.
    let base: string | undefined;
    if (oldStamp) {
      const status = this.runtime.fileState.checkStamp(target.real, oldStamp);
      if (status === 'modified' && this.modifiedSinceRead === 'apply-if-unrelated')
        base = lastSeenText(this.runtime, target.real);
      if (status !== 'ok' && base === undefined) return readStateError(params.path, status);
    }

    const editLog = this.runtime.slot(EDIT_LOG);
    const result = applyEdits(decoded.decoded, edits, { mode: this.match, log: editLog.edits(target.real) });
    if (!result.ok) {
      // Not found now, but in the text last read: the change since the read took it; say so, with what changed.
      const edit = edits[result.index - 1];
      const miss =
        base !== undefined && result.failure.kind === 'not-found' && edit !== undefined
          ? staleMiss(
              params.path,
              base,
              decoded.decoded.text,
              normalizeLineEndings(edit.old),
              this.runtime.diffBudgetMs,
            )
          : undefined;
      if (miss !== undefined) return toolError({ message: miss, brief: Briefs.fileModified });
      return toolError(editFailureText(result.index, result.failure));
    }
    if (result.alreadyApplied.length > 0) {
      // Every edit is a replay of one this session applied (a mix is an error above): nothing to ask or write.
      const snippet = lineSnippet(
        decoded.decoded.text,
        result.alreadyApplied.map((edit) => ({ from: edit.line, count: 1 })),
      );
      return toolOk({
        output: snippet.output,
        message: `File unchanged: the edit(s) were already applied by an earlier call in this session (${appliedPlaces(result.alreadyApplied)}). Nothing was written.`,
        extras: {
          replacements: 0,
          matchedBy: 'exact',
          edits: result.edits,
          alreadyApplied: true,
        } satisfies StrReplaceFileExtras,
      });
    }
    // A lazy edit (`# ... existing code ...` for real lines) would delete the user's code.
    const replacedText = result.replacements
      .map((replacement) => decoded.decoded.text.slice(replacement.start, replacement.end))
      .join('\n');
    const writtenText = result.replacements.map((replacement) => replacement.text).join('\n');
    const elided = introducedElision(replacedText, writtenText, decoded.decoded.text);
    if (elided !== undefined) return elidedContentError(elided);

    let staleNote = '';
    if (base !== undefined) {
      const stale = checkStaleEdit(
        params.path,
        base,
        decoded.decoded.text,
        result.replacements,
        this.runtime.diffBudgetMs,
      );
      if (stale.kind === 'overlap') return toolError({ message: stale.message, brief: Briefs.fileModified });
      staleNote = stale.note;
    }

    const levels = result.edits.map((outcome) => outcome.matchedBy);
    const total = result.edits.reduce((sum, outcome) => sum + outcome.replacements, 0);
    const extras: StrReplaceFileExtras = {
      replacements: total,
      matchedBy: loosestLevel(result.edits),
      edits: result.edits,
    };

    const newBytes = encodeChange(decoded.decoded, oldBytes, result.replacements);
    const outcome = await applyFileChange(
      this.runtime,
      {
        sender: this.name,
        verb: 'Edit',
        path: target,
        oldBytes,
        oldStamp,
        newBytes,
        oldText: decoded.decoded.text,
        newText: result.text,
        // Applied over a change since the read, the read state is stale by design; the file must still hold
        // `oldBytes` when it is written, so a change during the approval is refused all the same.
        checkReadState: this.runtime.readBeforeWrite && base === undefined,
      },
      options.signal,
    );
    switch (outcome.kind) {
      case 'refused':
        return outcome.result;
      case 'unchanged':
        return toolOk({
          message: `File unchanged: the edits leave the content identical to the current file. Applied ${edits.length} edit(s) with ${total} total replacement(s).`,
          extras: { ...extras },
        });
      case 'written': {
        // Logged even when the user kept only some hunks: a replay is recognised by its written text standing where
        // it was written, which a rejected edit's never does.
        editLog.record(target.real, result.applied);
        recordSeenText(this.runtime, target.real, outcome.newBytes);
        const snippet = this.writtenSnippet(decoded.decoded.text, result, outcome);
        return toolOk({
          output: snippet.output,
          message: withAnswerNote(
            editSuccessText(levels, total) +
              staleNote +
              (snippet.unshown ? snippetCutSentence(snippet.unshown) : ''),
            outcome.note,
          ),
          display: outcome.display,
          extras: { ...extras },
        });
      }
    }
  }

  /**
   * The changed places as the file now is, so the model needs no re-read to see or build on its edit: those of its
   * replacements, or, when the user's answer shaped the change, those of what was written (nothing for bytes that are
   * not text).
   */
  private writtenSnippet(
    oldText: string,
    result: { text: string; replacements: readonly TextReplacement[] },
    outcome: Extract<ApplyOutcome, { kind: 'written' }>,
  ): LineSnippet {
    const { shaped } = outcome;
    if (shaped === undefined)
      return lineSnippet(result.text, replacementLineSpans(result.text, result.replacements));
    if (shaped.text === undefined) return { output: '' };
    const changes = changedLines(oldText, shaped.text, this.runtime.diffBudgetMs);
    return lineSnippet(
      shaped.text,
      changes.map((change) => ({ from: change.newFrom, count: change.newCount })),
    );
  }

  /**
   * The checks between the path policy and the edit, on the opened file (the path may become a FIFO at any
   * moment): exists, regular file, not a notebook; a file over `streamAboveBytes` (its size from the open file,
   * nothing read yet) is edited by streaming right here, unless that path leaves it to this one; then the file's
   * bytes, and with read-before-write their stamp (as `readStampedFile` takes it), so the read state is judged on
   * exactly what is edited and the file is hashed once for the whole write.
   */
  private async readTarget(
    input: string,
    target: ResolvedPath,
    edits: readonly Edit[],
    options: CallOptions,
  ): Promise<TargetRead | ToolReturnValue<StrReplaceFileBrief>> {
    const { fs } = this.runtime;
    const file = await openRegularFile(fs, target.real);
    if (file === 'missing') return missingFileError(this.runtime, this, input, target.absolute);
    if (file === 'not-a-file') return notAFileError(input);
    try {
      if (
        path.extname(target.real).toLowerCase() === '.ipynb' ||
        path.extname(target.absolute).toLowerCase() === '.ipynb'
      ) {
        return notebookError(input);
      }
      const size = file.stats.size;
      if (size > this.streamAboveBytes) {
        const streamed = await editStreamed(
          {
            runtime: this.runtime,
            sender: this.name,
            input,
            target,
            handle: file.handle,
            edits,
            mode: this.match,
            canFallBack: size <= MAX_EDIT_FILE_BYTES,
            applyIfUnrelated: this.modifiedSinceRead === 'apply-if-unrelated',
          },
          options,
        );
        if (streamed !== FALL_BACK) return streamed;
      }
      // Taken before the bytes are read, so a change while they are read makes the stamp older, never newer.
      const stats = this.runtime.readBeforeWrite ? await file.handle.stat() : undefined;
      const bytes = await readHandleUpTo(file.handle, MAX_EDIT_FILE_BYTES + 1, size + 1);
      // Grown past what a string holds since the stat: the file is being rewritten under the edit.
      if (bytes.length > MAX_EDIT_FILE_BYTES) return readStateError(input, 'modified');
      return { bytes, stamp: stats && snapshotOf(bytes, stats) };
    } finally {
      await file.handle.close();
    }
  }
}
