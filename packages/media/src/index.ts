// The public surface of @kimi-tools/media.
export { ReadMediaFile, ReadMediaFileParams } from './read-media-file.js';
export { isReadMediaFileAvailable, supportedMediaKinds, type MediaKind } from './availability.js';
export { MAX_MEDIA_BYTES } from './limits.js';
