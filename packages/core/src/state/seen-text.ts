import type { ToolRuntime } from '../runtime/runtime.js';
import { decodeText } from '../text/codec.js';
import { hashBytes } from './content-hash.js';
import { READ_TEXT_MAX_BYTES, READ_TEXTS } from './read-texts.js';

/**
 * Keeps in the runtime the text of `bytes`, what the session has just read or written of `realPath`, when the file is
 * small enough and decodes; otherwise forgets any older text of it, which no longer matches the read state. `hash` is
 * `hashBytes(bytes)` when the caller has it already (the stamp it just recorded, or checked, carries it).
 */
export function recordSeenText(
  runtime: ToolRuntime,
  realPath: string,
  bytes: Uint8Array,
  hash?: string,
): void {
  const store = runtime.slot(READ_TEXTS);
  if (bytes.length > READ_TEXT_MAX_BYTES) return store.forget(realPath);
  const decoded = decodeText(bytes);
  if (!decoded.ok) return store.forget(realPath);
  store.record(realPath, decoded.decoded.text, hash ?? hashBytes(bytes));
}

/**
 * The text the session last read or wrote of `realPath`, when it was kept and belongs to the read state the runtime
 * holds now (same content hash); undefined otherwise.
 */
export function lastSeenText(runtime: ToolRuntime, realPath: string): string | undefined {
  const kept = runtime.slot(READ_TEXTS).get(realPath);
  const record = runtime.fileState.get(realPath);
  if (kept === undefined || record === undefined || record.hash !== kept.hash) return undefined;
  return kept.text;
}
