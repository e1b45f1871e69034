import { defineRuntimeSlot } from '../runtime/runtime-slot.js';

/** One edit StrReplaceFile applied in this session: the strings the model sent and the text that was written. */
export interface LoggedEdit {
  /** `old` as the model sent it, `\n`-normalised. */
  old: string;
  /** `new` as the model sent it, `\n`-normalised. */
  new: string;
  /** What was written in its place (`new` re-indented or restyled by a looser matching level). */
  written: string;
  /** 1-based line where the written text started when it was written (where a deletion was). */
  line: number;
}

/** Files an edit log remembers; the file edited longest ago is forgotten first. */
export const EDIT_LOG_MAX_FILES = 128;
/** Edits remembered per file; the oldest is forgotten first. */
export const EDIT_LOG_MAX_EDITS_PER_FILE = 64;
/** An edit whose strings hold more characters than this together is not remembered (a rewrite, not an edit). */
export const EDIT_LOG_MAX_EDIT_CHARS = 32 * 1024;

/**
 * The edits this session applied, per real path (docs/str-replace-file.md#replays), so a replayed edit can be told
 * from a new one. Bounded: at most {@link EDIT_LOG_MAX_FILES} files, each with at most
 * {@link EDIT_LOG_MAX_EDITS_PER_FILE} edits and {@link EDIT_LOG_MAX_FILE_CHARS} characters (8 Mi characters, 16 MB, in all
 * at worst; a few hundred KiB in a real session).
 */
export class EditLog {
  private readonly files = new Map<string, LoggedEdit[]>();

  /** Remembers edits applied to `realPath`, in the order they were applied. */
  record(realPath: string, edits: readonly LoggedEdit[]): void {
    const list = this.files.get(realPath) ?? [];
    this.files.delete(realPath);
    for (const edit of edits) {
      if (edit.old.length + edit.new.length + edit.written.length > EDIT_LOG_MAX_EDIT_CHARS) continue;
      list.push({ ...edit });
    }
    while (list.length > EDIT_LOG_MAX_EDITS_PER_FILE || charsOf(list) > EDIT_LOG_MAX_FILE_CHARS) list.shift();
    if (list.length === 0) return;
    this.files.set(realPath, list);
    while (this.files.size > EDIT_LOG_MAX_FILES) {
      const oldest = this.files.keys().next().value;
      if (oldest === undefined) break;
      this.files.delete(oldest);
    }
  }

  /** The edits remembered for `realPath`, oldest first. */
  edits(realPath: string): readonly LoggedEdit[] {
    return (this.files.get(realPath) ?? []).map((edit) => ({ ...edit }));
  }
}

/** Characters the edits remembered for one file may hold together (64 Ki). */
export const EDIT_LOG_MAX_FILE_CHARS = 64 * 1024;

function charsOf(list: readonly LoggedEdit[]): number {
  return list.reduce((sum, edit) => sum + edit.old.length + edit.new.length + edit.written.length, 0);
}

/** The runtime's edit log (made on first use). */
export const EDIT_LOG = defineRuntimeSlot('core.editLog', () => new EditLog());
