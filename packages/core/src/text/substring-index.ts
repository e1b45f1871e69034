/** Characters of the pieces the index hashes: a string shorter than this cannot be looked up. */
export const INDEX_GRAM_CHARS = 8;

const MULTIPLIER = 0x01000193;
/** MULTIPLIER to the power INDEX_GRAM_CHARS - 1 (mod 2^32): what the character leaving a rolling hash weighs. */
const LEAVING_WEIGHT = (() => {
  let weight = 1;
  for (let step = 1; step < INDEX_GRAM_CHARS; step++) weight = Math.imul(weight, MULTIPLIER);
  return weight;
})();

/** The hash of the piece starting at `at` (which must be followed by a whole piece). */
function gramHash(text: string, at: number): number {
  let hash = 0;
  for (let step = 0; step < INDEX_GRAM_CHARS; step++)
    hash = (Math.imul(hash, MULTIPLIER) + text.charCodeAt(at + step)) | 0;
  return hash;
}

/** The hash of the piece after the one starting at `at`, from that one's `hash`. */
function nextGramHash(text: string, at: number, hash: number): number {
  const kept = (hash - Math.imul(text.charCodeAt(at), LEAVING_WEIGHT)) | 0;
  return (Math.imul(kept, MULTIPLIER) + text.charCodeAt(at + INDEX_GRAM_CHARS)) | 0;
}

/** The slot of a piece's hash in a table of `mask + 1` slots. */
function slotOf(hash: number, mask: number): number {
  const mixed = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  return (mixed ^ (mixed >>> 16)) & mask;
}

/** Adds one to the count of the slot of every piece of `text`. */
function countSlots(text: string, pieces: number, counts: Int32Array, mask: number): void {
  let hash = gramHash(text, 0);
  for (let at = 0; at < pieces; at++) {
    counts[slotOf(hash, mask)]! += 1;
    if (at + 1 < pieces) hash = nextGramHash(text, at, hash);
  }
}

/** Puts the start of every piece of `text` at its slot's position, moving that position on. */
function fillSlots(
  text: string,
  pieces: number,
  positions: Int32Array,
  starts: Int32Array,
  mask: number,
): void {
  let hash = gramHash(text, 0);
  for (let at = 0; at < pieces; at++) {
    positions[starts[slotOf(hash, mask)]!++] = at;
    if (at + 1 < pieces) hash = nextGramHash(text, at, hash);
  }
}

/** Where an indexed string may occur: it holds its piece at `gramAt` wherever it occurs. */
export interface IndexCandidates<Owner> {
  gramAt: number;
  /** Original offsets where that piece starts (and some other pieces sharing its slot). */
  originals: Int32Array;
  /** Pieces the changes wrote that share its slot: their owners and where they start from the owner's text. */
  writtenOwners: Owner[];
  writtenOffsets: number[];
}

/**
 * An index of the 8-character pieces of a text that changes: every piece of the original text by its start, built in
 * two passes, and every piece a change wrote (or joined across the change's edges), added as changes come, under the
 * change that owns it. A string of 8 characters or more occurs only where its rarest piece does, so finding it costs
 * a few checks instead of a pass over the text. Pieces are hashed into slots (about one for four pieces); a slot
 * holds others too, so every candidate must be checked against the text. Flat arrays throughout: an index of a
 * 12,000-line file and 10,000 changes is a few typed arrays, not a million small objects.
 */
export class SubstringIndex<Owner> {
  private readonly mask: number;
  /** `slotEnds[slot]`: where the original offsets of `slot` end in {@link originals} (they start at the previous end). */
  private readonly slotEnds: Int32Array;
  private readonly originals: Int32Array;
  // Written pieces, a list per slot through `writtenNext` (-1 ends it), made on the first change.
  private writtenHead: Int32Array | undefined;
  private writtenCount: Int32Array | undefined;
  private writtenNext = new Int32Array(0);
  private writtenOffset = new Int32Array(0);
  private readonly writtenOwner: Owner[] = [];

  constructor(original: string) {
    const pieces = Math.max(0, original.length - INDEX_GRAM_CHARS + 1);
    this.mask = 2 ** Math.max(10, Math.ceil(Math.log2(Math.max(1, pieces / 4)))) - 1;
    const slotEnds = new Int32Array(this.mask + 1);
    const originals = new Int32Array(pieces);
    if (pieces > 0) {
      countSlots(original, pieces, slotEnds, this.mask);
      // Counts become starts, and filling moves each start to its slot's end.
      let total = 0;
      for (let slot = 0; slot <= this.mask; slot++) {
        const count = slotEnds[slot]!;
        slotEnds[slot] = total;
        total += count;
      }
      fillSlots(original, pieces, originals, slotEnds, this.mask);
    }
    this.slotEnds = slotEnds;
    this.originals = originals;
  }

  /**
   * Adds the pieces of `window` (current text around a change's text) that hold a character of that text, or span its
   * place when it is empty: `[textFrom, textTo)` of the window. `windowOffset` is where the window starts, counted
   * from the change's text.
   */
  addChange(owner: Owner, window: string, windowOffset: number, textFrom: number, textTo: number): void {
    const last = window.length - INDEX_GRAM_CHARS;
    // A piece holds a character of the text when it starts before the text's end and ends after its start; around
    // an empty text, when it has characters on both sides of its place.
    const first = Math.max(0, textFrom - INDEX_GRAM_CHARS + 1);
    const stop = Math.min(last, textTo > textFrom ? textTo - 1 : textFrom - 1);
    if (first > stop) return;
    const head = (this.writtenHead ??= new Int32Array(this.mask + 1).fill(-1));
    const count = (this.writtenCount ??= new Int32Array(this.mask + 1));
    let entry = this.writtenOwner.length;
    this.reserve(entry + stop - first + 1);
    let hash = gramHash(window, first);
    for (let at = first; at <= stop; at++, entry++) {
      const slot = slotOf(hash, this.mask);
      this.writtenOwner.push(owner);
      this.writtenOffset[entry] = windowOffset + at;
      this.writtenNext[entry] = head[slot]!;
      head[slot] = entry;
      count[slot]! += 1;
      if (at < stop) hash = nextGramHash(window, at, hash);
    }
  }

  /** Room for `size` written pieces. */
  private reserve(size: number): void {
    if (size <= this.writtenNext.length) return;
    const capacity = Math.max(size, this.writtenNext.length * 2, 1024);
    const next = new Int32Array(capacity);
    next.set(this.writtenNext);
    this.writtenNext = next;
    const offset = new Int32Array(capacity);
    offset.set(this.writtenOffset);
    this.writtenOffset = offset;
  }

  /**
   * Where `needle` may occur: the candidates of its rarest piece, or `undefined` when it is shorter than a piece or
   * even its rarest piece has more than `limit` candidates (a scan of the text is then cheaper).
   */
  candidates(needle: string, limit: number): IndexCandidates<Owner> | undefined {
    const last = needle.length - INDEX_GRAM_CHARS;
    if (last < 0) return undefined;
    const ends = this.slotEnds;
    const written = this.writtenCount;
    let bestAt = -1;
    let bestSlot = 0;
    let bestCount = Number.POSITIVE_INFINITY;
    let hash = gramHash(needle, 0);
    for (let at = 0; at <= last; at++) {
      const slot = slotOf(hash, this.mask);
      const count =
        ends[slot]! - (slot === 0 ? 0 : ends[slot - 1]!) + (written === undefined ? 0 : written[slot]!);
      if (count < bestCount) {
        bestAt = at;
        bestSlot = slot;
        bestCount = count;
        if (count === 0) break;
      }
      if (at < last) hash = nextGramHash(needle, at, hash);
    }
    if (bestCount > limit) return undefined;
    const writtenOwners: Owner[] = [];
    const writtenOffsets: number[] = [];
    if (this.writtenHead !== undefined) {
      for (let entry = this.writtenHead[bestSlot]!; entry !== -1; entry = this.writtenNext[entry]!) {
        writtenOwners.push(this.writtenOwner[entry]!);
        writtenOffsets.push(this.writtenOffset[entry]!);
      }
    }
    return {
      gramAt: bestAt,
      originals: this.originals.subarray(bestSlot === 0 ? 0 : ends[bestSlot - 1], ends[bestSlot]),
      writtenOwners,
      writtenOffsets,
    };
  }
}
