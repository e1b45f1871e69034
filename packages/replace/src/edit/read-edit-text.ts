import type { ToolReturnValue } from '@kimi-tools/core';
import {
  lastSeenText,
  readStateError,
  snapshotOf,
  stampOfHandle,
  type FileStamp,
} from '@kimi-tools/core/toolkit';
import { editTextRefusal, type StrReplaceFileBrief } from '../errors.js';
import { windowFormatOrWhole, type WindowFormat } from '../window/file-format.js';
import { matchEdits } from '../window/match-in-windows.js';
import { readLargerFile, readWhole, type EditText, type EditTextRefusal } from '../window/window-text.js';
import type { EditCall } from './edit-call.js';

/**
 * Step 1 of an edit (docs/str-replace-file.md#files-read-in-windows): the file read and its read state judged. A file
 * up to `streamAboveBytes` is read whole, as one window, stamped on its bytes (the stats taken before them, so a change
 * while they are read makes the stamp older, never newer). A larger one is stamped on its descriptor (every read and
 * the copy go by the stamp's size) and its windows' format judged from its first 64 KiB; one whose encoding needs the
 * whole file judged is read whole when it fits in a string. A file changed since the read goes on when the runtime
 * kept the text last read. Then a larger file is read (step 2), or the edits are matched on the file read whole
 * (step 3).
 */
export async function readEditText(call: EditCall): Promise<ToolReturnValue<StrReplaceFileBrief>> {
  const { runtime, file, target } = call;
  let text: EditText | EditTextRefusal | undefined;
  let stamp: FileStamp | undefined;
  let format: WindowFormat | undefined;
  if (file.size <= Math.min(call.streamAboveBytes, file.tuning.maxWholeBytes)) {
    const stats = runtime.readBeforeWrite ? await file.handle.stat() : undefined;
    ({ text } = (await readWhole(file))!);
    if (stats && 'decoded' in text) stamp = snapshotOf(text.whole!, stats);
  } else {
    stamp = await stampOfHandle(file.handle);
    file.size = stamp.size;
    const read = await windowFormatOrWhole(file, stamp);
    if ('text' in read) ({ text, stamp } = read);
    else format = read;
  }
  if (text !== undefined && 'refused' in text) return editTextRefusal(call, text);

  let base: string | undefined;
  if (stamp && runtime.readBeforeWrite) {
    const status = runtime.fileState.checkStamp(target.real, stamp);
    if (status === 'modified' && call.applyIfUnrelated) base = lastSeenText(runtime, target.real);
    if (status !== 'ok' && base === undefined) return readStateError(call.input, status);
  }
  if (text === undefined) return readLargerFile(call, format!, stamp!, base);
  return matchEdits(call, { text, stamp, base });
}
