import type { OpenFile } from '@kimi-tools/core/fs';
import {
  toolError,
  toolOk,
  type CallOptions,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import {
  applyStreamedChange,
  EDIT_LOG,
  introducedElision,
  lastSeenText,
  normalizeLineEndings,
  type LoggedEdit,
  readStateError,
  snippetCutSentence,
  stampOfHandle,
  unsupportedEncodingError,
  withAnswerNote,
  type ResolvedPath,
} from '@kimi-tools/core/toolkit';
import {
  editFailureText,
  elidedContentError,
  streamedEncodingError,
  streamedExactOnlyText,
  streamedOneEditError,
  streamedRepeatError,
  StrReplaceFileBriefs,
  type StrReplaceFileBrief,
} from '../errors.js';
import { editSuccessText } from '../match/edit-messages.js';
import { isSameEdit } from '../match/replays.js';
import type { EditMatch } from '../match/types.js';
import type { Edit } from '../params.js';
import { copyWithRanges } from './copy-with-windows.js';
import { planStreamedEdit } from './plan-streamed-edit.js';
import { streamFormatOf } from './stream-format.js';
import { DEFAULT_STREAM_TUNING, type StreamTuning } from './stream-tuning.js';

/** What the tool passes to {@link editStreamed}. */
export interface StreamedEditRequest {
  runtime: ToolRuntime;
  sender: string;
  input: string;
  target: ResolvedPath;
  handle: OpenFile;
  edits: readonly Edit[];
  mode: EditMatch;
  /**
   * The file also fits the in-memory path: what this path does not do (a list of edits, a looser matching level, an
   * encoding a byte match is not safe in, a read state only the in-memory path can judge) is left to it.
   */
  canFallBack: boolean;
  /** Whether an edit of a file changed since the read may still apply away from the change (in memory only). */
  applyIfUnrelated: boolean;
  /** Chunk and window sizes; the defaults unless a test passes small ones. */
  tuning?: StreamTuning;
}

/** Returned instead of a result when the in-memory path should take the call (see `canFallBack`). */
export const FALL_BACK = 'fall-back';

/**
 * StrReplaceFile on a file above the streaming threshold (docs/str-replace-file.md#files-too-large-for-memory): one edit,
 * exact matches only, found and written by streaming; the read state, approval, lock, history and atomic rename of
 * every write. Returns the tool's result; the extras are built by the caller's types.
 */
export async function editStreamed(
  request: StreamedEditRequest,
  options: CallOptions,
): Promise<ToolReturnValue<StrReplaceFileBrief> | typeof FALL_BACK> {
  const { runtime, input, target, handle, canFallBack } = request;
  const tuning = request.tuning ?? DEFAULT_STREAM_TUNING;
  const [edit, ...more] = request.edits;
  if (canFallBack && (edit === undefined || more.length > 0)) return FALL_BACK;
  // Only an edit this session already applied to the file, sent again, can be a replay (docs: Replays): the in-memory
  // path recognises those. Any other edit is streamed, whatever the file's log holds (a miss still goes to memory,
  // for its message).
  const repeated = edit !== undefined && repeatsLoggedEdit(runtime.slot(EDIT_LOG).edits(target.real), edit);
  if (canFallBack && repeated) return FALL_BACK;
  // Taken before the scan, so a change while the file is scanned makes the stamp older, never newer.
  const oldStamp = await stampOfHandle(handle);
  // Every read below, and the copy, go by the stamped size: it is what the lock checks the file against before the
  // write, so a file grown since it was opened is copied whole, never cut to its earlier length.
  const size = oldStamp.size;
  const format = await streamFormatOf(handle, size);
  if ('reason' in format) {
    if (canFallBack) return FALL_BACK;
    return format.reason === 'not-text'
      ? unsupportedEncodingError(input)
      : streamedEncodingError(input, format.encoding);
  }
  if (runtime.readBeforeWrite) {
    const status = runtime.fileState.checkStamp(target.real, oldStamp);
    // Only the in-memory path applies an edit over a change since the read, from the text kept of that read; any
    // other refusal is given here, without reading the whole file just to refuse it.
    const overChange =
      status === 'modified' && request.applyIfUnrelated && lastSeenText(runtime, target.real) !== undefined;
    if (status !== 'ok') return canFallBack && overChange ? FALL_BACK : readStateError(input, status);
  }
  if (edit === undefined || more.length > 0) return streamedOneEditError(input);
  // Too large for memory: a repeat is refused rather than maybe applied twice (an insertion after an anchor would be).
  if (repeated) return streamedRepeatError(input);
  const plan = await planStreamedEdit(
    {
      handle,
      size,
      format,
      path: target.real,
      diffBudgetMs: runtime.diffBudgetMs,
      tuning,
      signal: options.signal,
    },
    edit,
    request.mode,
  );
  if (!plan.ok) {
    // Past the sample, the file is not text the way the sample said: the in-memory path judges the whole file, and
    // refuses a file too large for it the way it refuses bytes it cannot decode.
    if (plan.failure.kind === 'not-text') return canFallBack ? FALL_BACK : unsupportedEncodingError(input);
    if (plan.failure.kind === 'exact-only') {
      if (canFallBack) return FALL_BACK;
      return toolError({
        message: streamedExactOnlyText(1, input, edit.replace_all),
        brief: StrReplaceFileBriefs.noMatch,
      });
    }
    return toolError(editFailureText(1, plan.failure));
  }
  const elided = introducedElision(plan.replacedText, plan.writtenText, plan.context);
  if (elided !== undefined) return elidedContentError(elided);
  const extras = {
    replacements: plan.outcome.replacements,
    matchedBy: plan.outcome.matchedBy,
    edits: [plan.outcome],
  };
  if (plan.unchanged) {
    return toolOk({
      message: `File unchanged: the edits leave the content identical to the current file. Applied 1 edit(s) with ${plan.outcome.replacements} total replacement(s).`,
      extras,
    });
  }
  const outcome = await applyStreamedChange(
    runtime,
    {
      sender: request.sender,
      verb: 'Edit',
      path: target,
      oldStamp,
      display: plan.display,
      newSize: plan.newSize,
      writeTo: (source, temp) =>
        copyWithRanges(source, size, plan.ranges, temp, {
          chunkBytes: tuning.chunkBytes,
          signal: options.signal,
        }),
      checkReadState: runtime.readBeforeWrite,
    },
    options.signal,
  );
  if (outcome.kind === 'refused') return outcome.result;
  // Logged as in memory, so repeating the call is recognised as a replay (by the in-memory path, for a file that fits).
  runtime.slot(EDIT_LOG).record(target.real, plan.applied);
  return toolOk({
    output: plan.snippet.output,
    message: withAnswerNote(
      editSuccessText([plan.outcome.matchedBy], plan.outcome.replacements) +
        (plan.snippet.unshown ? snippetCutSentence(plan.snippet.unshown) : ''),
      outcome.note,
    ),
    display: outcome.display,
    extras,
  });
}

/** Whether `edit` is one of the logged edits sent again. */
function repeatsLoggedEdit(log: readonly LoggedEdit[], edit: Edit): boolean {
  if (log.length === 0) return false;
  const old = normalizeLineEndings(edit.old);
  const replacement = normalizeLineEndings(edit.new);
  return log.some((entry) => isSameEdit(entry, old, replacement));
}
