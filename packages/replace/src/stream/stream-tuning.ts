import { SCAN_CHUNK_BYTES } from './scan-occurrences.js';
import { WINDOW_CONTEXT_LINES, WINDOW_REACH_BYTES } from './edit-windows.js';

/**
 * The sizes the streamed path works in. The defaults are what the tool uses; tests pass small ones so that chunk
 * and window edges fall inside files of a few bytes.
 */
export interface StreamTuning {
  /** Bytes read at a time by the scans and the copy. */
  chunkBytes: number;
  /** How far a window reaches for its context lines. */
  windowReachBytes: number;
  /** Lines around a match that its window takes in. */
  windowContextLines: number;
}

export const DEFAULT_STREAM_TUNING: Readonly<StreamTuning> = Object.freeze({
  chunkBytes: SCAN_CHUNK_BYTES,
  windowReachBytes: WINDOW_REACH_BYTES,
  windowContextLines: WINDOW_CONTEXT_LINES,
});
