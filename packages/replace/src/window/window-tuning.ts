import { MAX_EDIT_FILE_BYTES, MAX_WINDOW_BYTES } from '../limits.js';
import { SCAN_CHUNK_BYTES } from './scan-needles.js';
import { WINDOW_CONTEXT_LINES, WINDOW_REACH_BYTES } from './window-ranges.js';

/**
 * The sizes a file is read in windows with. The defaults are what the tool uses; tests pass small ones so that chunk
 * and window edges fall inside files of a few bytes.
 */
export interface WindowTuning {
  /** Bytes read at a time by the scan and the copy. */
  chunkBytes: number;
  /** How far a window reaches for its lines beyond what the edits need. */
  windowReachBytes: number;
  /** Lines a window takes in around what the edits may change, for the diff and the snippet. */
  windowContextLines: number;
  /** The largest file read whole when its encoding or its text needs the whole file to be judged. */
  maxWholeBytes: number;
  /** Bytes the windows of one call may hold together. */
  maxWindowBytes: number;
}

/** The sizes the tool uses. */
export const DEFAULT_WINDOW_TUNING: Readonly<WindowTuning> = Object.freeze({
  chunkBytes: SCAN_CHUNK_BYTES,
  windowReachBytes: WINDOW_REACH_BYTES,
  windowContextLines: WINDOW_CONTEXT_LINES,
  maxWholeBytes: MAX_EDIT_FILE_BYTES,
  maxWindowBytes: MAX_WINDOW_BYTES,
});
