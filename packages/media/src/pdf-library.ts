import type * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

/** pdf.js, the build for Node. */
export type PdfLibrary = typeof pdfjs;

/** pdf.js is imported on first need only: it is large, and most calls read no PDF. */
export async function loadPdfLibrary(): Promise<PdfLibrary> {
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}
