import type { ContentPart } from '@kimi-tools/core';
import { shownPath } from '@kimi-tools/core/toolkit';
import type { MediaKind } from './availability.js';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/** Escapes text for an HTML attribute value, so a path can never close the `path="..."` attribute early. */
export function escapeHtmlAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** A base64 `data:` URL of the bytes. */
export function toDataUrl(bytes: Uint8Array, mime: string): string {
  return `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

/** The three parts a model receives: the opening tag naming the file, the media URL, the closing tag. */
export function mediaParts(kind: MediaKind, realPath: string, url: string): ContentPart[] {
  return [
    { type: 'text', text: `<${kind} path="${escapeHtmlAttribute(shownPath(realPath))}">` },
    kind === 'image' ? { type: 'image_url', url } : { type: 'video_url', url },
    { type: 'text', text: `</${kind}>` },
  ];
}
