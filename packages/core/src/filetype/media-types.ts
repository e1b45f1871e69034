/** A media kind with the MIME type used in data URLs. */
export interface MediaType {
  kind: 'image' | 'video';
  mime: string;
}

/** docs/read-media-file.md media extensions: a hint used when sniffing recognises nothing and the content is not plain text. */
export const MEDIA_BY_EXTENSION: Readonly<Record<string, MediaType>> = {
  '.png': { kind: 'image', mime: 'image/png' },
  '.jpg': { kind: 'image', mime: 'image/jpeg' },
  '.jpeg': { kind: 'image', mime: 'image/jpeg' },
  '.gif': { kind: 'image', mime: 'image/gif' },
  '.bmp': { kind: 'image', mime: 'image/bmp' },
  '.tif': { kind: 'image', mime: 'image/tiff' },
  '.tiff': { kind: 'image', mime: 'image/tiff' },
  '.webp': { kind: 'image', mime: 'image/webp' },
  '.ico': { kind: 'image', mime: 'image/x-icon' },
  '.heic': { kind: 'image', mime: 'image/heic' },
  '.heif': { kind: 'image', mime: 'image/heif' },
  '.avif': { kind: 'image', mime: 'image/avif' },
  '.mp4': { kind: 'video', mime: 'video/mp4' },
  '.mkv': { kind: 'video', mime: 'video/x-matroska' },
  '.avi': { kind: 'video', mime: 'video/x-msvideo' },
  '.mov': { kind: 'video', mime: 'video/quicktime' },
  '.wmv': { kind: 'video', mime: 'video/x-ms-wmv' },
  '.webm': { kind: 'video', mime: 'video/webm' },
  '.m4v': { kind: 'video', mime: 'video/x-m4v' },
  '.flv': { kind: 'video', mime: 'video/x-flv' },
  '.3gp': { kind: 'video', mime: 'video/3gpp' },
  '.3g2': { kind: 'video', mime: 'video/3gpp2' },
};

/**
 * Formats `file-type` recognises that count as media (by its `ext`), with the MIME type we report. Other recognised
 * image/video formats (PSD, camera RAW, MPEG-TS...) are not something a model takes as input: they are binary.
 */
export const MEDIA_BY_SNIFFED_EXTENSION: Readonly<Record<string, MediaType>> = {
  png: { kind: 'image', mime: 'image/png' },
  apng: { kind: 'image', mime: 'image/png' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
  gif: { kind: 'image', mime: 'image/gif' },
  bmp: { kind: 'image', mime: 'image/bmp' },
  tif: { kind: 'image', mime: 'image/tiff' },
  webp: { kind: 'image', mime: 'image/webp' },
  ico: { kind: 'image', mime: 'image/x-icon' },
  heic: { kind: 'image', mime: 'image/heic' },
  avif: { kind: 'image', mime: 'image/avif' },
  mp4: { kind: 'video', mime: 'video/mp4' },
  f4v: { kind: 'video', mime: 'video/mp4' },
  m4v: { kind: 'video', mime: 'video/x-m4v' },
  mov: { kind: 'video', mime: 'video/quicktime' },
  mkv: { kind: 'video', mime: 'video/x-matroska' },
  webm: { kind: 'video', mime: 'video/webm' },
  avi: { kind: 'video', mime: 'video/x-msvideo' },
  asf: { kind: 'video', mime: 'video/x-ms-wmv' },
  flv: { kind: 'video', mime: 'video/x-flv' },
  '3gp': { kind: 'video', mime: 'video/3gpp' },
  '3g2': { kind: 'video', mime: 'video/3gpp2' },
};

/** Extensions that are always text, whatever their bytes resemble (`.ts` looks like MPEG-TS to a sniffer). */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(['.svg', '.ts', '.tsx', '.mts', '.cts']);
