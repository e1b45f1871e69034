// @kimi-tools/test-kit: what the tests of every package share (private, never published; tests import its sources).

// temp workspaces: a vitest fixture, or a plain factory for beforeAll and the like
export { test, it } from './workspace-test.js';
export {
  createTempWorkspace,
  type TempWorkspace,
  type TempWorkspaceOptions,
  type WorkspaceRuntimeOptions,
  type FileContent,
} from './temp-workspace.js';
export { markRead } from './mark-read.js';

// the file-system backend a run is on (KIMI_TEST_FS: local, memory, ssh), and plain file operations through any backend
export { TEST_BACKENDS, TEST_BACKEND_VARIABLE, type TestBackendName } from './backends/backend-names.js';
export {
  testBackendName,
  testFileSystem,
  testSshServer,
  type TestSshServer,
} from './backends/test-backend.js';
export { readBytes, writeBytes, removeTree } from './backends/backend-files.js';
export { forwardingFileSystem } from './backends/forwarding-file-system.js';
export { signal, type Signal } from './signal.js';
export { statsLostAfterRename } from './backends/stats-lost-after-rename.js';
export { inPlaceFails, inPlaceFlushFailsOnce } from './backends/in-place-fails.js';
export { onSkewedClock } from './backends/skewed-clock.js';
export {
  BACKEND_LIMITS,
  backendHas,
  KNOWN_DEFECTS,
  failsWhere,
  type BackendLimit,
  type KnownDefect,
} from './backends/backend-limits.js';

// a child process that announces where it is on its standard output
export { nextLine } from './child-lines.js';

// an editor's change that keeps size and modification time (what only the content or the change time reveals)
export { restoreMtimeNs, rewriteKeepingMtime } from './keep-mtime.js';

// a program changing a file through a shared memory mapping (bytes changed, times not)
export { mapSharedForWriting, type SharedMapping } from './shared-mapping.js';

// a real file system that shows a local directory at a virtual path and records every operation (tests of the seam)
export {
  translatedFileSystem,
  SFTP_CAPABILITIES,
  type TranslatedFileSystem,
  type TranslatedFileSystemOptions,
} from './translated-file-system.js';
export { translatedRuntime, VIRTUAL_ROOT, type TranslatedRuntime } from './translated-runtime.js';

// approvals
export { recordingApproval, type RecordingApproval, type ApprovalScript } from './recording-approval.js';

// media files built byte by byte
export {
  pngBytes,
  jpegBytes,
  gifBytes,
  bmpBytes,
  webpBytes,
  mp4Bytes,
  webmBytes,
  scannedPdfBytes,
} from './media-bytes.js';

// a real OpenSSH server on 127.0.0.1 with keys made for the run, for the SSH backend's tests
export {
  startSshServer,
  type SshServer,
  type SshServerOptions,
  type SshHostKey,
  type SshHostKeyType,
} from './ssh-server.js';

// a local HTTP server replaying recorded API responses, for official API clients pointed at it by `baseURL`
export {
  startReplayServer,
  REPLAY_EXHAUSTED_STATUS,
  type ReplayServer,
  type ReplayResponse,
  type ReplayServerOptions,
  type RecordedRequest,
} from './replay-server.js';

// the session the adapter tests replay, with what the model reads back
export {
  agentScenario,
  agentPictureBase64,
  agentImageTexts,
  agentScanTexts,
  agentScanImage,
} from './agent-scenario.js';

// a host's own tool with a fixed answer, and results of each kind, for the model API adapters' tests
export { fixedTool, MIXED_MEDIA, mediaResult, textResult, errorResult } from './fixed-tool.js';

// what a package's sources load at import time (the cold start of a process using it)
export { loadTimeImportOffenders, type LoadTimeRules } from './load-time-imports.js';

// the conformance suite every file-system backend runs against itself (docs/file-systems.md)
export {
  describeFileSystemConformance,
  type FileSystemUnderTest,
  type FileSystemConformanceOptions,
} from './fs-conformance/describe-conformance.js';
export type { ConformanceFeature } from './fs-conformance/conformance-case.js';

// README snippets: the blocks of a Markdown file, and a snippet written and run as a Node program (tsx)
export { firstTypeScriptBlock, typeScriptBlocks, type TypeScriptBlock } from './readme-snippet.js';
export {
  writeTypeScriptProgram,
  runProgram,
  type TypeScriptProgram,
  type TypeScriptProgramOptions,
  type ProgramRun,
  type RunOptions,
} from './typescript-program.js';
