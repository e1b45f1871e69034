import { defineRuntimeSlot } from '../runtime/runtime-slot.js';

/** Files up to this many bytes keep their text when read or written (1 MiB); bigger ones only their read-state hash. */
export const READ_TEXT_MAX_BYTES = 1024 * 1024;
/** Characters all kept texts may hold together (16 Mi, about 32 MB); the text used longest ago goes first. */
export const READ_TEXTS_MAX_CHARS = 16 * 1024 * 1024;

/** The text a session last read or wrote of a file, and the content hash of the bytes it came from. */
export interface ReadText {
  /** The `\n`-normalised decoded text. */
  text: string;
  /** `hashBytes` of the bytes, as the read state records it: the text is only used while the two agree. */
  hash: string;
}

/**
 * What the session last saw of each file (docs/read-state.md#changed-since-the-read): the text of a file up to
 * {@link READ_TEXT_MAX_BYTES}, kept so that an edit can be applied when only other lines changed since. Bounded by
 * {@link READ_TEXTS_MAX_CHARS} in all, the least recently recorded text going first.
 */
export class ReadTextStore {
  private readonly texts = new Map<string, ReadText>();
  private chars = 0;

  /** Keeps `text` as what the session last saw of `realPath` (replacing what it saw before). */
  record(realPath: string, text: string, hash: string): void {
    this.forget(realPath);
    if (text.length > READ_TEXTS_MAX_CHARS) return;
    this.texts.set(realPath, { text, hash });
    this.chars += text.length;
    for (const [oldest, kept] of this.texts) {
      if (this.chars <= READ_TEXTS_MAX_CHARS) break;
      this.texts.delete(oldest);
      this.chars -= kept.text.length;
    }
  }

  /** What the session last saw of `realPath`, when its text was kept. */
  get(realPath: string): ReadText | undefined {
    const kept = this.texts.get(realPath);
    return kept && { ...kept };
  }

  /** Forgets `realPath` (a read too large to keep replaces an older text, which must not be used any more). */
  forget(realPath: string): void {
    const kept = this.texts.get(realPath);
    if (kept === undefined) return;
    this.texts.delete(realPath);
    this.chars -= kept.text.length;
  }
}

/** The runtime's store of last-read texts (made on first use). */
export const READ_TEXTS = defineRuntimeSlot('core.readTexts', () => new ReadTextStore());
