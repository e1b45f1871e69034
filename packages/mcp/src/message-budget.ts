import { mediaTooLargeText, cutMarker } from './errors.js';

/**
 * The most one message of ours may take on the wire. Clients read stdio line by line into bounded buffers (Claude
 * Desktop's holds 10 MiB, and drops the connection beyond it); 8 MiB leaves room.
 */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Kept for the JSON-RPC envelope and the small fields around the texts (a form's schema, a result's flags). */
const ENVELOPE_BYTES = 64 * 1024;

/** What the texts and media of one message may take together, JSON-encoded. */
export const MESSAGE_CONTENT_BYTES = MAX_MESSAGE_BYTES - ENVELOPE_BYTES;

/** The bytes base64 `data` holds: three for every four characters, less one for each `=` of padding. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

/** Bytes `value` takes JSON-encoded, as it goes on the wire. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** Bytes one character takes inside a JSON string, as `JSON.stringify` writes it and UTF-8 encodes it. */
function jsonCharBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2; // \" and \\
  if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return 2; // \b \t \n \f \r
  if (code < 0x20) return 6; // \u00XX
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 6; // a lone surrogate, escaped as \uXXXX
  return 3;
}

/**
 * The length of the longest head of `text` whose JSON encoding (quotes aside) takes at most `room` bytes, never
 * ending inside a surrogate pair. One pass, stopping where the room runs out: no copy of a text of any size.
 */
function fittingHead(text: string, room: number): number {
  let used = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    const pair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    const bytes = pair ? 4 : jsonCharBytes(code);
    if (used + bytes > room) break;
    used += bytes;
    index += pair ? 2 : 1;
  }
  return index;
}

/**
 * `text` if its JSON encoding takes at most `budget` bytes, else its longest head that fits with a marker saying how
 * much was cut. Never splits a surrogate pair. The one way the server bounds a text it sends.
 */
export function fitText(text: string, budget: number): string {
  if (fittingHead(text, budget - 2) === text.length) return text;
  // Sized with the largest count it can show, so the final marker never needs more room than reserved.
  const end = fittingHead(text, budget - jsonBytes(cutMarker(text.length)));
  return text.slice(0, end) + cutMarker(text.length - end);
}

/** What is left of one message's budget as its parts are added, in order. */
export class MessageBudget {
  constructor(private remaining: number = MESSAGE_CONTENT_BYTES) {}

  /** `text`, cut to what is left, and counted. */
  text(text: string): string {
    const fitted = fitText(text, Math.max(this.remaining, 0));
    this.remaining -= jsonBytes(fitted);
    return fitted;
  }

  /** Whether a value of `bytes` (JSON-encoded) still fits; if it does, it is counted. */
  take(bytes: number): boolean {
    if (bytes > this.remaining) return false;
    this.remaining -= bytes;
    return true;
  }

  /** The text sent instead of a media part that does not fit (`data`: its base64). */
  mediaNote(kind: 'image' | 'video', data: string): string {
    return this.text(mediaTooLargeText(kind, base64Bytes(data), data.length, MAX_MESSAGE_BYTES));
  }
}
