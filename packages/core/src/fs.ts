// @kimi-tools/core/fs: what a file-system backend is made of (docs/file-systems.md). A host picks a backend and
// passes it as `createRuntime({ fs })`; a backend author implements `FileSystem` and runs the conformance suite of
// the test kit against it.

/** The type bits of a backend's `mode`, for backends whose stats come as a mode (SFTP, `stat -c`). */
export { FileType, fileTypeTests, isFileType } from './fs/file-type.js';
/** Names that are not UTF-8, carried as byte escapes U+DC80–U+DCFF (docs/paths.md#names-that-are-not-utf-8). */
export {
  bytesOfName,
  hasLoneSurrogate,
  mayHaveLostBytes,
  nameFromBytes,
  wellFormed,
} from './fs/byte-names.js';
export { ByteNameDecoder } from './fs/byte-name-decoder.js';
export { localFileSystem } from './fs/local-file-system.js';
export { StatsTable, WideField } from './fs/stats-table.js';
export {
  memoryFileSystem,
  type MemoryEntry,
  type MemoryFileSystem,
  type MemoryFileSystemOptions,
  type MemorySnapshot,
} from './fs/memory/memory-file-system.js';
/** For a backend that starts programs through a shell where the files are: how it sees them start. */
export { PRINT_START_MARKER, StartMarkerStream } from './fs/start-marker.js';
export type {
  DirEntry,
  ExecOptions,
  ExecProcess,
  FileStats,
  FileSystem,
  FileSystemCapabilities,
  FileTypeTests,
  OpenFile,
  OpenMode,
  StoredLineScan,
  StoredLineScanRequest,
} from './fs/file-system.js';
