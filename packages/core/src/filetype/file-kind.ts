import path from 'node:path';
import {
  MEDIA_BY_EXTENSION,
  MEDIA_BY_SNIFFED_EXTENSION,
  TEXT_EXTENSIONS,
  type MediaType,
} from './media-types.js';
import { isStructurallyValid } from './structure-checks.js';
import { hasUtf16Bom } from '../text/bom.js';
import { importRetrying, resolvedModuleUrl } from '../fs/import-retrying.js';
import { hasEarlyNul, looksLikePlainText } from './text-sniff.js';
import { sniffCommonImage, type SniffedFormat } from './sniff-common-image.js';

/** What a file is, for choosing between ReadFile and ReadMediaFile. */
export type FileKind =
  | { kind: 'text' }
  | { kind: 'image'; mime: string }
  | { kind: 'video'; mime: string }
  | { kind: 'pdf' }
  | { kind: 'binary' };

const TEXT: FileKind = { kind: 'text' };
const BINARY: FileKind = { kind: 'binary' };
const PDF: FileKind = { kind: 'pdf' };

/** Every PDF starts with this header; an all-ASCII PDF would otherwise pass for plain text. */
const PDF_HEADER = Buffer.from('%PDF-', 'latin1');

function startsWithPdfHeader(head: Uint8Array): boolean {
  return head.length >= PDF_HEADER.length && PDF_HEADER.equals(head.subarray(0, PDF_HEADER.length));
}

/** Sniffed formats that are text themselves (XML, vCard, RTF...): the usual NUL rule decides for them. */
function isTextualFormat(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'application/xml' || mime === 'application/rtf';
}

function media(type: MediaType): FileKind {
  return { kind: type.kind, mime: type.mime };
}

async function sniff(head: Uint8Array): Promise<SniffedFormat | undefined> {
  const common = sniffCommonImage(head);
  if (common) return common;
  // Loaded on first use: it is by far the heaviest import of core, and plain text never needs it. A failed load is
  // retried, so one bad moment does not break every later check of the process.
  const { fileTypeFromBuffer } = await importRetrying(
    () => import('file-type'),
    resolvedModuleUrl('file-type', import.meta.url),
  );
  try {
    return await fileTypeFromBuffer(head);
  } catch {
    // A header too damaged for the parser is simply not a recognised format.
    return undefined;
  }
}

/** The media type of a sniffed format, when it is media we serve (HEIC keeps its exact sniffed variant). */
function sniffedMedia(sniffed: SniffedFormat): MediaType | undefined {
  const type = MEDIA_BY_SNIFFED_EXTENSION[sniffed.ext];
  if (!type) return undefined;
  if (sniffed.ext === 'asf' && sniffed.mime.startsWith('audio/')) return undefined;
  if (sniffed.ext === 'heic') return { kind: 'image', mime: sniffed.mime };
  return type;
}

/**
 * docs/read-media-file.md type detection from the path and the first bytes (`readFileHead`), in this order:
 * 1. `.svg .ts .tsx .mts .cts` are text (never media; binary only when a NUL shows in the first 512 bytes).
 * 2. A UTF-16 BOM means text; `%PDF-` at the very start means a PDF (ReadMediaFile reads it by page).
 * 3. An empty file is media when its extension says so (ReadMediaFile then reports it empty), else text.
 * 4. Plain text (no control bytes besides whitespace and ESC) is text, whatever its extension or magic letters:
 *    a `.png` holding text (a Git LFS pointer, say) is not an image, nor is a `.txt` starting with "BMW".
 * 5. A format recognised by `file-type` (PNG, APNG, JPEG, GIF and WebP without loading it, see
 *    `sniffCommonImage`) and structurally valid: media we serve → image/video with the sniffed
 *    type (it beats the extension: a `.png` holding a JPEG is image/jpeg); textual formats → step 7; any other
 *    recognised format → binary.
 * 6. A media extension → that media type (a damaged or exotic variant the sniffer does not know).
 * 7. A NUL byte in the first 512 bytes → binary; anything else → text (decoding decides later).
 */
export async function detectFileKind(filePath: string, head: Uint8Array): Promise<FileKind> {
  const extension = path.extname(filePath).toLowerCase();
  if (TEXT_EXTENSIONS.has(extension)) return hasUtf16Bom(head) || !hasEarlyNul(head) ? TEXT : BINARY;
  if (hasUtf16Bom(head)) return TEXT;
  if (startsWithPdfHeader(head)) return PDF;
  const hinted = MEDIA_BY_EXTENSION[extension];
  if (head.length === 0) return hinted ? media(hinted) : TEXT;
  if (looksLikePlainText(head)) return TEXT;

  const sniffed = await sniff(head);
  if (sniffed && isStructurallyValid(sniffed.ext, head)) {
    const type = sniffedMedia(sniffed);
    if (type) return media(type);
    if (!isTextualFormat(sniffed.mime)) return BINARY;
  }
  if (hinted) return media(hinted);
  return hasEarlyNul(head) ? BINARY : TEXT;
}
