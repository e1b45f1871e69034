import { BEGIN_PATCH, envelopeReasons, parseEnvelope } from './parse-envelope.js';
import { looksUnified, parseUnified } from './parse-unified.js';
import type { ParsedPatch } from './patch-types.js';
import { unwrapHeredoc } from './unwrap-heredoc.js';

/**
 * Reads a patch in either format (docs/apply-patch.md#formats): the heredoc wrapper models add is dropped first;
 * then text that starts with `*** Begin Patch` is an envelope, text that reads as a unified diff is one, and
 * anything else is refused as an envelope without its first line. Line breaks may be `\n` or `\r\n`.
 */
export function parsePatch(text: string): ParsedPatch {
  const { lines, offset } = unwrapHeredoc(text.split(/\r?\n/));
  const first = lines.find((line) => line.trim() !== '');
  if (first?.trim() === BEGIN_PATCH) return parseEnvelope(lines, offset);
  if (looksUnified(lines)) return parseUnified(lines, offset);
  return { ok: false, reason: envelopeReasons.firstLine };
}
