/** The bytes of the line-break characters of a file's encoding, and its code unit size. */
export interface BreakBytes {
  /** 1, or 2 for UTF-16: matches and line breaks only count at offsets that are multiples of it (after the BOM). */
  unit: number;
  lf: Uint8Array;
  cr: Uint8Array;
}

/** Offsets of `pattern` in `buffer[from, to)` that are multiples of its length counted from buffer offset `origin`. */
function* aligned(buffer: Buffer, pattern: Uint8Array, from: number, to: number, origin: number) {
  const unit = pattern.length;
  for (let at = buffer.indexOf(pattern, from); at !== -1 && at < to; at = buffer.indexOf(pattern, at + 1)) {
    if ((at - origin) % unit === 0) yield at;
  }
}

/**
 * Counts the line breaks the model sees (`\n`, `\r\n` and a lone `\r` each end one line) in a file read buffer by
 * buffer, up to offsets that only grow. The unit after each counted range must be in the buffer (or the range end at
 * the end of the file), so a `\r` is never counted before it is known whether a `\n` follows it.
 */
export class LineBreakCounter {
  /** Line breaks before `countedTo`. */
  breaks = 0;
  /** File offset counted up to. */
  countedTo: number;

  /** `start`: the file offset of the first character (after the BOM). */
  constructor(
    private readonly bytes: BreakBytes,
    private readonly start: number,
  ) {
    this.countedTo = start;
  }

  /** Counts up to file offset `to`; `buffer` starts at file offset `bufferStart` and holds `[countedTo, to]`. */
  advance(buffer: Buffer, bufferStart: number, to: number): void {
    if (to <= this.countedTo) return;
    const from = this.countedTo - bufferStart;
    const end = to - bufferStart;
    const { lf, cr, unit } = this.bytes;
    const origin = this.start - bufferStart;
    for (const _ of aligned(buffer, lf, from, end, origin)) this.breaks++;
    for (const at of aligned(buffer, cr, from, end, origin)) {
      const next = at + unit;
      const followedByLf =
        next + unit <= buffer.length && buffer.compare(lf, 0, unit, next, next + unit) === 0;
      if (!followedByLf) this.breaks++;
    }
    this.countedTo = to;
  }
}
