import { buildDiffView, type DiffView } from '../diff/build-diff-blocks.js';
import { defineRuntimeSlot } from '../runtime/runtime-slot.js';
import { decodeText } from '../text/codec.js';
import { bytesEqual } from '../text/encoding-bytes.js';

/**
 * An approved append on its way to its file (docs/write-file.md#appends-side-by-side): the bytes it was computed from,
 * those it adds, and the bytes the runtime's other appends to the file have added since it was approved.
 */
export interface AppendInFlight {
  /** The bytes the append was computed from. */
  readonly oldBytes: Uint8Array;
  /** The bytes it adds after them. */
  readonly added: Uint8Array;
  /**
   * Where the append lands when the runtime's other appends to the file were written once it was approved: the file
   * as they left it (`oldBytes`, then what they added, in the order they were written), and that followed by
   * `added`. None while none was.
   */
  landing(): { oldBytes: Uint8Array; newBytes: Uint8Array } | undefined;
  /** Stops counting what other appends add: this one is written, or refused. */
  end(): void;
}

/** The appends of one file that are approved and not yet ended, and what was appended since the first of them. */
interface FileAppends {
  inFlight: number;
  /** What each append written since the first of those in flight was approved added, in the order written. */
  written: Uint8Array[];
}

/**
 * The approved appends of one runtime, per real path, and the bytes its appends have added to each file while one is
 * on its way. Nothing is kept of a file none is on its way to.
 */
export class AppendsInFlight {
  private readonly files = new Map<string, FileAppends>();

  /**
   * Starts an append of `newBytes` to a file that held `oldBytes`, approved now; none when the change is no append
   * (its bytes do not begin with `oldBytes`).
   */
  start(realPath: string, oldBytes: Uint8Array | null, newBytes: Uint8Array): AppendInFlight | undefined {
    if (oldBytes === null || newBytes.length <= oldBytes.length) return undefined;
    if (!bytesEqual(newBytes.subarray(0, oldBytes.length), oldBytes)) return undefined;
    const file = this.files.get(realPath) ?? { inFlight: 0, written: [] };
    this.files.set(realPath, file);
    file.inFlight++;
    const from = file.written.length;
    let ended = false;
    const added = newBytes.subarray(oldBytes.length);
    return {
      oldBytes,
      added,
      landing: () => {
        const since = file.written.slice(from);
        if (since.length === 0) return undefined;
        const found = Buffer.concat([oldBytes, ...since]);
        return { oldBytes: found, newBytes: Buffer.concat([found, added]) };
      },
      end: () => {
        if (ended) return;
        ended = true;
        if (--file.inFlight === 0 && this.files.get(realPath) === file) this.files.delete(realPath);
      },
    };
  }

  /** An append to `realPath` was written, adding `added`: the appends on their way there count it. */
  written(realPath: string, added: Uint8Array): void {
    this.files.get(realPath)?.written.push(added);
  }
}

/** The runtime's appends in flight. */
export const APPENDS_IN_FLIGHT = defineRuntimeSlot('write.appendsInFlight', () => new AppendsInFlight());

/**
 * The diff of an append that lands after what the runtime's other appends added (`found`), as its result shows
 * what was written; none when either side is not text (the approval showed text: it is not written as anything else).
 */
export function landedAppendView(
  realPath: string,
  found: Uint8Array,
  newBytes: Uint8Array,
  budgetMs: number,
): DiffView | undefined {
  const before = decodeText(found);
  const after = decodeText(newBytes);
  if (!before.ok || !after.ok) return undefined;
  return buildDiffView(realPath, before.decoded.text, after.decoded.text, { budgetMs });
}
