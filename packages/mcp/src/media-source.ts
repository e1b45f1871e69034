import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readShownPath } from '@kimi-tools/core/toolkit';

const WRAPPER_TAG = /^<(?:image|video) path="([^"]*)">$/;
const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : entity;
    }
    return HTML_ENTITIES[name.toLowerCase()] ?? entity;
  });
}

/**
 * The file path named by a media wrapper part such as `<video path="/w/clip.mp4">` (the text ReadMediaFile puts
 * before each media part), or `undefined` when the text is not such a tag. The tag holds the path as shown
 * (docs/paths.md#how-paths-are-shown), so a quoted one is read back to the file's own path.
 */
export function wrapperTagPath(text: string): string | undefined {
  const match = WRAPPER_TAG.exec(text.trim());
  return match ? readShownPath(unescapeHtml(match[1]!)) : undefined;
}

/** A `file://` URI for a path named by a wrapper tag, so clients can tell which file a resource came from. */
export function fileUri(filePath: string): string {
  return pathToFileURL(filePath).href;
}

/** A short name for a resource link: the last path segment of a URL, or `fallback`. */
export function resourceName(url: string, fallback: string): string {
  try {
    const base = path.posix.basename(new URL(url).pathname);
    return base ? decodeURIComponent(base) : fallback;
  } catch {
    return fallback;
  }
}
