/** A line break as it appears in a file. */
export type LineEnding = '\n' | '\r\n' | '\r';

/** How a text file's bytes map to characters. */
export interface TextEncoding {
  /** 'utf-8', 'utf-16le', 'utf-16be', or an iconv-lite name such as 'gbk', 'gb18030', 'shift_jis', 'windows-1252'. */
  encoding: string;
  /** Whether the file starts with a byte order mark (kept when writing back). */
  bom: boolean;
}

/** Everything needed to write text back exactly as the file stored it. */
export interface TextFormat extends TextEncoding {
  /** The file's most frequent line ending ('\n' when it has none); given to new or changed lines. */
  lineEnding: LineEnding;
}

/** A decoded text file. */
export interface DecodedText {
  /** The characters with their original line endings, BOM removed. */
  raw: string;
  /** `raw` with every `\r\n` and lone `\r` turned into `\n` (what the model sees). */
  text: string;
  /** Encoding, BOM and dominant line ending of the file. */
  format: TextFormat;
}

/** Outcome of decoding a whole file: text, or why it is not text. */
export type DecodeResult =
  { ok: true; decoded: DecodedText } | { ok: false; reason: 'binary' | 'unsupported-encoding' };
