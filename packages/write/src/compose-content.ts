import {
  encodeChange,
  encodeNewFile,
  encodeText,
  normalizeLineEndings,
  type DecodedText,
} from '@kimi-tools/core/toolkit';
import type { WriteMode } from './params.js';

/** The bytes WriteFile writes, and the '\n'-normalised texts the diff is built from. */
export interface ComposedContent {
  newBytes: Uint8Array;
  oldText: string;
  newText: string;
}

/**
 * A new file: UTF-8, no BOM, line endings exactly as given (docs/encodings.md). Throws when `content` holds a lone
 * surrogate, which UTF-8 cannot store.
 */
export function composeNewFile(content: string): ComposedContent {
  return { newBytes: encodeNewFile(content), oldText: '', newText: normalizeLineEndings(content) };
}

/**
 * An existing file, in its own format (docs/encodings.md): its encoding and BOM, and its line-ending style (lines left as they
 * were keep their exact endings; new lines get the dominant one). A file without any line break has no style to
 * keep, so `content` keeps the line endings it was given. `oldBytes` are the bytes `decoded` came from (reused where
 * the content did not change). Throws when `content` holds a character the file's encoding cannot store.
 */
export function composeExisting(
  decoded: DecodedText,
  oldBytes: Uint8Array,
  content: string,
  mode: WriteMode,
): ComposedContent {
  const added = normalizeLineEndings(content);
  const newText = mode === 'append' ? decoded.text + added : added;
  const hasLineBreak = /[\r\n]/.test(decoded.raw);
  const newBytes = hasLineBreak
    ? encodeChange(decoded, oldBytes, newText)
    : encodeText(mode === 'append' ? decoded.raw + content : content, decoded.format);
  return { newBytes, oldText: decoded.text, newText };
}
