/** A `data:` URL taken apart: its media type and its payload as base64. */
export interface ParsedDataUrl {
  mimeType: string;
  base64: string;
}

// RFC 2397: data:[<mediatype>][;base64],<data>
const DATA_URL = /^data:([^,]*?)(;base64)?,(.*)$/is;

/** Splits a `data:` URL into media type and base64 payload; `undefined` when `url` is not a data URL. */
export function parseDataUrl(url: string): ParsedDataUrl | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  const [, mediaType = '', base64Flag, payload = ''] = match;
  // Parameters such as `;charset=utf-8` are not part of the MIME type MCP wants.
  const mimeType = mediaType.split(';')[0]?.trim() || 'text/plain';
  if (base64Flag) return { mimeType, base64: payload.replace(/\s+/g, '') };
  // A percent-encoded payload is re-encoded, so every content part carries base64 as MCP requires.
  return { mimeType, base64: percentDecode(payload).toString('base64') };
}

/** The bytes of a percent-encoded payload: `%XX` is one byte, anything else its UTF-8 bytes. */
function percentDecode(payload: string): Buffer {
  const chunks: Buffer[] = [];
  let plainFrom = 0;
  const escape = /%([0-9a-f]{2})/gi;
  for (let match = escape.exec(payload); match; match = escape.exec(payload)) {
    chunks.push(Buffer.from(payload.slice(plainFrom, match.index), 'utf8'));
    chunks.push(Buffer.from([Number.parseInt(match[1]!, 16)]));
    plainFrom = match.index + match[0].length;
  }
  chunks.push(Buffer.from(payload.slice(plainFrom), 'utf8'));
  return Buffer.concat(chunks);
}
