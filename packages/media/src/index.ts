// The public surface of @kimi-tools/media.
export { ReadMediaFile } from './read-media-file.js';
export { ReadMediaFileParams } from './params.js';
export type { ReadMediaFileOptions, UploadVideo } from './options.js';
export type { ImageLibrary, LoadImageLibrary } from './image-library.js';
export type { ReadMediaFileBrief } from './errors.js';
export {
  isReadMediaFileAvailable,
  supportedMediaKinds,
  type Capability,
  type MediaCapabilities,
  type MediaKind,
} from './availability.js';
export {
  MAX_MEDIA_BYTES,
  DEFAULT_MAX_IMAGE_EDGE,
  DEFAULT_MAX_IMAGE_BYTES,
  MAX_PDF_PAGES,
  MAX_PDF_TEXT_CHARS,
} from './limits.js';
