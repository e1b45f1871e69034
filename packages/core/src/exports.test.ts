import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as host from './index.js';
import * as toolkit from './toolkit.js';
import * as backends from './fs.js';

// The two public faces of core, pinned: a name added to or removed from either is a decision, made here on purpose.

const HOST_API = [
  'Approval',
  'ApprovalRequest',
  'ApprovalResponse',
  'AskUser',
  'BriefDisplayBlock',
  'CallOptions',
  'CallableTool',
  'ContentPart',
  'DiffDisplayBlock',
  'DisplayBlock',
  'FileAction',
  'FileActions',
  'FileHistory',
  'FileHistoryOptions',
  'FileSystem',
  'FileStateTracker',
  'HistoryEntry',
  'JsonSchema',
  'ModelContent',
  'ModelPart',
  'OutsidePolicy',
  'RuntimeOptions',
  'SectionDisplayBlock',
  'SessionApproval',
  'ToolDefinition',
  'ToolReturnValue',
  'ToolSet',
  'ToolRuntime',
  'UnifiedDiffLine',
  'UnifiedDiffOptions',
  'createRuntime',
  'createToolSet',
  'formatUnifiedDiff',
  'modelText',
  'rejectAllApproval',
  'strictParameters',
  'toModelContent',
  'toolError',
  'toolOk',
  'unifiedDiffLines',
  'yoloApproval',
];

const TOOLKIT = [
  'AppliedFileChange',
  'ChangeSection',
  'FileChangeObserver',
  'toolRejected',
  'ApplyOutcome',
  'ArgumentsCheck',
  'JsonSchemaConverter',
  'ToolParamsSchema',
  'ToolZod',
  'Briefs',
  'CleanupOptions',
  'CoreBrief',
  'DEFAULT_DIFF_BUDGET_MS',
  'DIFF_BLOCK_MAX_BYTES',
  'DIFF_DISPLAY_MAX_BYTES',
  'DIFF_LINE_MAX_CHARS',
  'DIFF_MAX_LINES',
  'DESCRIPTOR_SHORTAGE_RETRIES',
  'DecodeResult',
  'EMPTY_RESULT_TEXT',
  'ERROR_MARKER',
  'DecodedText',
  'DiffOptions',
  'DiffTiming',
  'EditableCellType',
  'FILE_HEAD_BYTES',
  'FileChange',
  'FileKind',
  'FileSnapshot',
  'FileStamp',
  'CONTENT_HASH_LIMIT_BYTES',
  'StampStats',
  'JsonObject',
  'JsonValue',
  'LineEnding',
  'LinePosition',
  'LineScanOptions',
  'LineScanResult',
  'NOTEBOOK_OUTPUT_MAX_LINES',
  'Notebook',
  'NotebookCell',
  'NotebookCellEdit',
  'NotebookEditPlan',
  'NotebookParse',
  'PathResult',
  'PathVerb',
  'ResolvedPath',
  'RuntimeSlot',
  'ScannedLine',
  'StreamDecoder',
  'StreamedFileChange',
  'TextDraft',
  'TextEncoding',
  'TextFormat',
  'TextReplacement',
  'ToolResultInit',
  'UnencodableTextError',
  'Utf8StreamCheck',
  'applyFileChange',
  'applyStreamedChange',
  'buildDiffBlocks',
  'choiceOption',
  'choicesOption',
  'containsNulByte',
  'cleanupStaleTempFiles',
  'createContentHasher',
  'createStreamDecoder',
  'createUtf8StreamCheck',
  'decodeText',
  'descriptorShortageDelayMs',
  'defineRuntimeSlot',
  'detectFileKind',
  'detectLineEnding',
  'detectTextEncoding',
  'encodeChange',
  'encodeText',
  'errorText',
  'escapeForDisplay',
  'fileNotFoundError',
  'functionOption',
  'hasErrno',
  'hashBytes',
  'hashFile',
  'importRetrying',
  'isAtomicTempName',
  'isDescriptorShortage',
  'isLockFileName',
  'isMissingPathError',
  'isWithinDirectory',
  'normalizeLineEndings',
  'notAFileError',
  'notFoundMessage',
  'notReadableMessage',
  'NotRegularFile',
  'OpenedRegularFile',
  'openRegularFile',
  'parseNotebook',
  'planNotebookEdit',
  'positionalCellId',
  'positiveNumberOption',
  'quotedPath',
  'readFailedMessage',
  'readFileHead',
  'readFileUpTo',
  'sensitiveFileError',
  'readRegularFile',
  'RegularFileBytes',
  'readHandleUpTo',
  'readStateError',
  'readStampedFile',
  'StampedBytes',
  'realPathAllowMissing',
  'renderCell',
  'renderDescription',
  'resolvedModuleUrl',
  'retryOnDescriptorShortage',
  'renderNotebook',
  'scanLines',
  'sensitiveEditError',
  'sensitiveFilesWarning',
  'shownPath',
  'showControlCharacters',
  'snapshotOf',
  'sameStamp',
  'stampOf',
  'stampOfHandle',
  'stampOfStats',
  'stampNeedsHash',
  'statIfExists',
  'Slots',
  'stringOption',
  'toolFailedMessage',
  'unsupportedEncodingError',
  'ModelMediaPart',
  'ToolsOrSet',
  'keepAcceptedMedia',
  'mediaLeftOutText',
  'toolSetOf',
  'validateArguments',
  'ChangedLines',
  'changedLines',
  'numberedLine',
  'lineSnippet',
  'snippetCutSentence',
  'SNIPPET_MAX_BYTES',
  'SNIPPET_CONTEXT_LINES',
  'SNIPPET_LINE_MAX_CHARS',
  'SNIPPET_GAP_LINE',
  'LineSpan',
  'LineSnippet',
  'LineSnippetOptions',
  'replacementLineSpans',
  'isElisionComment',
  'introducedElision',
  'EditLog',
  'EDIT_LOG',
  'EDIT_LOG_MAX_FILES',
  'EDIT_LOG_MAX_EDITS_PER_FILE',
  'EDIT_LOG_MAX_EDIT_CHARS',
  'EDIT_LOG_MAX_FILE_CHARS',
  'LoggedEdit',
  'ReadTextStore',
  'READ_TEXTS',
  'READ_TEXT_MAX_BYTES',
  'READ_TEXTS_MAX_CHARS',
  'ReadText',
  'recordSeenText',
  'lastSeenText',
  'IgnoreRuleSet',
  'IGNORE_FILE_NAMES',
  'VCS_DIRECTORIES',
  'loadIgnoreRules',
  'loadAncestorIgnoreLevels',
  'levelForDirectory',
  'isIgnoredEntry',
  'ignoredEntryTest',
  'isVcsName',
  'IGNORE_SET_MAX_REMEMBERED',
  'VerdictOfEntry',
  'IgnoreLevel',
  'IgnoreLoadOptions',
  'IgnoreRuleCache',
  'IGNORE_RULE_CACHE_SETS',
  'IGNORE_RULE_CACHE_CHARS',
  'readIgnoreFile',
  'IGNORE_FILE_MAX_BYTES',
  'workspaceRootOf',
];

const here = path.dirname(fileURLToPath(import.meta.url));

const ENTRIES = ['index.ts', 'toolkit.ts', 'fs.ts'].map((entry) => path.join(here, entry));

/** One program for both entry files: building it is the slow part (seconds on a loaded machine). */
const program = ts.createProgram(ENTRIES, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
});

/** Every name an entry file exports, types included, as the TypeScript checker sees them. */
function exportedNames(entry: string): string[] {
  const file = path.join(here, entry);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`cannot read the exports of ${entry}`);
  return checker
    .getExportsOfModule(symbol)
    .map((exported) => exported.name)
    .sort();
}

const FILE_SYSTEMS = [
  'DirEntry',
  'ExecOptions',
  'ExecProcess',
  'FileStats',
  'FileSystem',
  'FileSystemCapabilities',
  'FileTypeTests',
  'OpenFile',
  'OpenMode',
  'localFileSystem',
];

describe('the public entry points of @kimi-tools/core', () => {
  it('the host API (`@kimi-tools/core`) is exactly these names, at most 41', () => {
    expect(exportedNames('index.ts')).toEqual([...HOST_API].sort());
    expect(HOST_API.length).toBeLessThanOrEqual(41);
  });

  it('the toolkit (`@kimi-tools/core/toolkit`) is exactly these names', () => {
    expect(exportedNames('toolkit.ts')).toEqual([...TOOLKIT].sort());
  });

  it('the file-system seam (`@kimi-tools/core/fs`) is exactly these names', () => {
    expect(exportedNames('fs.ts')).toEqual([...FILE_SYSTEMS].sort());
    for (const name of Object.keys(backends)) expect(FILE_SYSTEMS).toContain(name);
  });

  it('no name is in both, and every runtime value exported is one of the names', () => {
    expect(HOST_API.filter((name) => TOOLKIT.includes(name))).toEqual([]);
    for (const name of Object.keys(host)) expect(HOST_API).toContain(name);
    for (const name of Object.keys(toolkit)) expect(TOOLKIT).toContain(name);
  });
});
