import { MAX_PDF_PAGES } from './limits.js';

/** `pages` as the model writes it: one page (`7`), a range (`3-12`) or from a page on (`21-`). */
export const PAGES_PATTERN = /^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$/;

/** The pages one call reads, 1-based and inclusive. */
export interface PageSpan {
  first: number;
  last: number;
}

/**
 * The span `pages` asks for in a document of `total` pages: at most {@link MAX_PDF_PAGES} pages, ending at the last
 * page. Undefined when the first page is past the end. `pages` has already passed the schema (pattern, first >= 1,
 * last >= first).
 */
export function pageSpan(pages: string | undefined, total: number): PageSpan | undefined {
  const match = PAGES_PATTERN.exec(pages ?? '1-');
  const first = Number(match![1]);
  if (first > total) return undefined;
  const asked = match![3] !== undefined ? Number(match![3]) : match![2] ? total : first;
  return { first, last: Math.min(asked, total, first + MAX_PDF_PAGES - 1) };
}

/** Whether `pages` is well formed: the pattern, a first page of at least 1, and a last page not before the first. */
export function isValidPages(pages: string): boolean {
  const match = PAGES_PATTERN.exec(pages);
  if (!match) return false;
  const first = Number(match[1]);
  return first >= 1 && (match[3] === undefined || Number(match[3]) >= first);
}
