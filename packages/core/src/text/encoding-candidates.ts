import { chardet, iconvLite } from '../fs/load-on-use.js';

/** chardet names we never try: Unicode forms are handled before chardet, ISO-2022 is 7-bit (it decodes as UTF-8). */
const SKIPPED = new Set([
  'ASCII',
  'UTF-8',
  'UTF-16LE',
  'UTF-16BE',
  'UTF-32',
  'UTF-32LE',
  'UTF-32BE',
  'mbcs',
  'sbcs',
]);

/**
 * chardet name → iconv-lite encodings to try, narrowest first. A plain GBK file is reported as 'gbk' so that a
 * later edit cannot slip GB18030-only four-byte sequences into it; 'gb18030' is used when the file needs it.
 * Latin-1 text is tried as windows-1252 first: identical for printable Latin-1, and it can also encode the curly
 * quotes, dashes and € a model tends to write; real Latin-1 C1 bytes (undefined in windows-1252) fall back to
 * iso-8859-1.
 */
const CANDIDATES: Record<string, readonly string[]> = {
  GB18030: ['gbk', 'gb18030'],
  Shift_JIS: ['shift_jis'],
  'EUC-JP': ['euc-jp'],
  'EUC-KR': ['euc-kr'],
  Big5: ['big5'],
  'ISO-8859-1': ['windows-1252', 'iso-8859-1'],
  'windows-1252': ['windows-1252', 'iso-8859-1'],
  'ISO-8859-8-I': ['iso-8859-8'],
};

/** Tried last, when chardet has no usable guess, for bytes that look like text. */
export const FALLBACK_ENCODING = 'windows-1252';

/** Tie-break between equally confident guesses: the encodings most files in the wild use come first. */
const PREFERENCE = ['gbk', 'shift_jis', 'windows-1252', 'euc-kr', 'big5', 'euc-jp'];

/** How many bytes chardet looks at; it is slow on whole large files and a window of real text is enough. */
const SAMPLE_BYTES = 1 << 20;

function rank(encoding: string): number {
  const index = PREFERENCE.indexOf(encoding);
  return index === -1 ? PREFERENCE.length : index;
}

/** A window of the bytes starting near the first non-ASCII byte: that is where the encodings differ. */
function sampleForDetection(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= SAMPLE_BYTES) return bytes;
  let firstHigh = 0;
  while (firstHigh < bytes.length && (bytes[firstHigh] as number) < 0x80) firstHigh++;
  const start = Math.max(0, firstHigh - 1024);
  return bytes.subarray(start, start + SAMPLE_BYTES);
}

/** iconv-lite encodings to try for `bytes`, most likely first (chardet confidence, then preference). */
export function legacyEncodingCandidates(bytes: Uint8Array): string[] {
  const matches = chardet().analyse(sampleForDetection(bytes));
  const ranked: { encoding: string; confidence: number; preference: number; order: number }[] = [];
  for (const match of matches) {
    if (match.confidence <= 0 || SKIPPED.has(match.name)) continue;
    const names = (CANDIDATES[match.name] ?? [match.name.toLowerCase()]).filter((name) =>
      iconvLite().encodingExists(name),
    );
    const preference = rank(names[0] ?? '');
    for (const encoding of names) {
      ranked.push({ encoding, confidence: match.confidence, preference, order: ranked.length });
    }
  }
  // Stable within one chardet guess, so a guess's narrowest encoding stays first.
  ranked.sort((a, b) => b.confidence - a.confidence || a.preference - b.preference || a.order - b.order);
  const seen = new Set<string>();
  const result: string[] = [];
  for (const { encoding } of ranked) {
    if (seen.has(encoding)) continue;
    seen.add(encoding);
    result.push(encoding);
  }
  return result;
}
