// The public surface of @kimi-tools/media.
export {
  ReadMediaFile,
  ReadMediaFileParams,
  type ReadMediaFileOptions,
  type UploadVideo,
} from './read-media-file.js';
export {
  isReadMediaFileAvailable,
  supportedMediaKinds,
  type Capability,
  type MediaCapabilities,
  type MediaKind,
} from './availability.js';
export { MAX_MEDIA_BYTES } from './limits.js';
