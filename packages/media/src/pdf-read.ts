import { toolOk, type ContentPart, type ToolReturnValue } from '@kimi-tools/core';
import { quotedPath, shownPath } from '@kimi-tools/core/toolkit';
import { encryptedPdfError, invalidPdfError, pagesOutsideError, type ReadMediaFileBrief } from './errors.js';
import { base64Length } from './image-fit.js';
import { MAX_PDF_PAGES, MAX_PDF_TEXT_CHARS, PDF_PAGE_IMAGE_EDGE } from './limits.js';
import { escapeHtmlAttribute, toDataUrl } from './media-parts.js';
import { loadPdfLibrary, type PdfLibrary } from './pdf-library.js';
import { pageSpan, type PageSpan } from './pdf-pages.js';

/** What reading a PDF needs: the file, the `pages` argument, whether the model sees images, and the image limits. */
export interface PdfRequest {
  realPath: string;
  bytes: Uint8Array;
  pages: string | undefined;
  imageIn: boolean;
  maxEdge: number;
  maxBytes: number;
}

type PdfDocument = Awaited<ReturnType<PdfLibrary['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/** Why pages without text were not sent as images. */
type UnsentReason = 'no-image-in' | 'no-renderer' | 'budget';

/** docs/read-media-file.md#pdfs: the text of a span of pages, with page numbers; pages without text as images. */
export async function readPdf(request: PdfRequest): Promise<ToolReturnValue<ReadMediaFileBrief>> {
  const pdfjs = await loadPdfLibrary();
  // pdf.js may take over the buffer it is given: it gets a copy. Errors only, nothing printed for font warnings.
  const task = pdfjs.getDocument({
    data: new Uint8Array(request.bytes),
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    stopAtErrors: false,
  });
  try {
    let doc: PdfDocument;
    try {
      doc = await task.promise;
    } catch (error) {
      if (error instanceof Error && error.name === 'PasswordException')
        return encryptedPdfError(request.realPath);
      const reason = error instanceof Error ? error.message : String(error);
      return invalidPdfError(request.realPath, reason.split('\n')[0]!.slice(0, 300));
    }
    const span = pageSpan(request.pages, doc.numPages);
    if (!span) return pagesOutsideError(request.pages ?? '1-', doc.numPages);
    return await readSpan(doc, span, request);
  } finally {
    await task.destroy();
  }
}

async function readSpan(
  doc: PdfDocument,
  span: PageSpan,
  request: PdfRequest,
): Promise<ToolReturnValue<ReadMediaFileBrief>> {
  const total = doc.numPages;
  const parts: ContentPart[] = [];
  const textless: number[] = [];
  const unsent = new Map<number, UnsentReason>();
  let chars = 0;
  let imageBytes = 0;
  let last = span.first - 1;
  let cutPage: number | undefined;

  for (let number = span.first; number <= span.last; number++) {
    const page = await doc.getPage(number);
    const text = await pageText(page);
    if (text.trim() === '') {
      textless.push(number);
      const image = request.imageIn ? await renderPage(doc, page, request.maxEdge) : 'no-image-in';
      if (typeof image === 'string') unsent.set(number, image);
      else if (imageBytes + base64Length(image.length) > request.maxBytes) unsent.set(number, 'budget');
      else {
        imageBytes += base64Length(image.length);
        parts.push({ type: 'text', text: `--- Page ${number} (no text layer; as an image) ---` });
        parts.push({ type: 'image_url', url: toDataUrl(image, 'image/jpeg') });
        last = number;
        continue;
      }
      parts.push({ type: 'text', text: `--- Page ${number} (no text layer) ---` });
      last = number;
      continue;
    }
    // A page that would cross the cap ends the call before it; only a first page too long on its own is cut.
    if (chars + text.length > MAX_PDF_TEXT_CHARS && number > span.first) break;
    const shown = text.length > MAX_PDF_TEXT_CHARS ? text.slice(0, MAX_PDF_TEXT_CHARS) : text;
    if (shown.length < text.length) cutPage = number;
    chars += shown.length;
    parts.push({ type: 'text', text: `--- Page ${number} ---\n${shown}` });
    last = number;
  }

  const open = `<pdf path="${escapeHtmlAttribute(shownPath(request.realPath))}" pages="${span.first}-${last}" total_pages="${total}">`;
  return toolOk({
    output: [{ type: 'text', text: open }, ...parts, { type: 'text', text: '</pdf>' }],
    message: pdfMessage(request, {
      first: span.first,
      last,
      total,
      textless,
      unsent,
      cutPage,
      cappedAt: last < span.last,
    }),
    extras: {
      kind: 'pdf',
      mime: 'application/pdf',
      size: request.bytes.length,
      pages: { first: span.first, last },
      totalPages: total,
    },
  });
}

/** The text layer of a page, with its line breaks. */
async function pageText(page: PdfPage): Promise<string> {
  const content = await page.getTextContent();
  let text = '';
  for (const item of content.items) {
    if (!('str' in item)) continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text.endsWith('\n') || text === '' ? text : `${text}\n`;
}

/** A JPEG of the page, its long edge at most the smaller of the page image size and `maxEdge`; or why not. */
async function renderPage(
  doc: PdfDocument,
  page: PdfPage,
  maxEdge: number,
): Promise<Uint8Array | 'no-renderer'> {
  try {
    const unit = page.getViewport({ scale: 1 });
    const scale = Math.min(PDF_PAGE_IMAGE_EDGE, maxEdge) / Math.max(unit.width, unit.height);
    const viewport = page.getViewport({ scale });
    // pdf.js makes its canvases with @napi-rs/canvas, its optional dependency for Node.
    const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
    const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    await page.render({ canvasContext: context, viewport }).promise;
    return canvas.toBuffer('image/jpeg', 80);
  } catch {
    return 'no-renderer';
  }
}

type RenderContext = Parameters<PdfPage['render']>[0]['canvasContext'];

interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): { canvas: { toBuffer(mime: 'image/jpeg', quality: number): Uint8Array }; context: RenderContext };
}

interface PdfMessageFacts {
  first: number;
  last: number;
  total: number;
  textless: number[];
  unsent: Map<number, UnsentReason>;
  cutPage: number | undefined;
  cappedAt: boolean;
}

const UNSENT_REASONS: Record<UnsentReason, string> = {
  'no-image-in': 'the current model does not take images',
  'no-renderer': 'the page renderer (@napi-rs/canvas) is not available',
  budget: 'it would take the images of this call past the byte budget; read fewer pages per call',
};

function pageList(pages: number[]): string {
  return `${pages.length === 1 ? 'page' : 'pages'} ${pages.join(', ')}`;
}

/** docs/read-media-file.md#pdfs: what was read, what was not and why, and how to read on. */
function pdfMessage(request: PdfRequest, facts: PdfMessageFacts): string {
  const { first, last, total } = facts;
  const range = first === last ? `page ${first}` : `pages ${first}-${last}`;
  const sentences = [
    `Read ${range} of ${total} of PDF ${quotedPath(request.realPath)} (${request.bytes.length} bytes).`,
  ];
  const sent = facts.textless.filter((page) => !facts.unsent.has(page));
  if (sent.length > 0) {
    sentences.push(
      `No text layer on ${pageList(sent)}: sent as ${sent.length === 1 ? 'an image' : 'images'}.`,
    );
  }
  for (const reason of ['no-image-in', 'no-renderer', 'budget'] as const) {
    const pages = [...facts.unsent].filter(([, why]) => why === reason).map(([page]) => page);
    if (pages.length > 0) {
      sentences.push(`No text layer on ${pageList(pages)}, not sent as an image: ${UNSENT_REASONS[reason]}.`);
    }
  }
  if (facts.cutPage !== undefined) {
    sentences.push(`The text of page ${facts.cutPage} was cut at ${MAX_PDF_TEXT_CHARS} characters.`);
  }
  if (facts.cappedAt) sentences.push(`The output stops at ${MAX_PDF_TEXT_CHARS} characters of text.`);
  if (last < total) {
    const nextLast = Math.min(last + MAX_PDF_PAGES, total);
    const next = nextLast === last + 1 ? `${nextLast}` : `${last + 1}-${nextLast}`;
    sentences.push(`To read on, call again with pages "${next}" (at most ${MAX_PDF_PAGES} pages per call).`);
  } else {
    sentences.push('This is the end of the document.');
  }
  return sentences.join(' ');
}
