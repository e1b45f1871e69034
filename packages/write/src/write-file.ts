import { CallableTool, toolOk, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';
import {
  applyFileChange,
  decodeText,
  LIST_SEPARATORS,
  shownPath,
  readStateError,
  realPathAllowMissing,
  readRegularFile,
  readStampedFile,
  notAFileError,
  sensitiveEditError,
  snippetCutSentence,
  introducedElision,
  recordSeenText,
  unsupportedEncodingError,
  missingDirectories,
  PathThroughFileError,
  pathThroughFileError,
  LineDiff,
  withAnswerNote,
  type LineSnippet,
} from '@kimi-tools/core/toolkit';
import { TOOL_ZOD } from './tool-zod.js';
import { composeExisting, composeNewFile, type ComposedContent } from './compose-content.js';
import { describeWriteFile } from './description.js';
import { elidedContentError, writeFailedMessage, WriteFileBriefs, type WriteFileBrief } from './errors.js';
import { displayDirectory } from './missing-directories.js';
import { WriteFileParams, type WriteMode } from './params.js';
import { writeSnippet } from './write-snippet.js';

/**
 * Whether the change may remove a line of the old text: some old line lies between the lines both texts share at
 * their start and end. An overwrite that only adds lines (code inserted into a big file) keeps every old line, so no
 * comment it adds can stand for lost code, and its new text is not scanned for one.
 */
function removesLines(lines: LineDiff): boolean {
  const { prefix, suffix } = lines.shared;
  return lines.oldLines.count > prefix + suffix;
}

/**
 * The snippet of what was written (docs/write-file.md#success): of the content as the model sent it, or, when the
 * user's answer shaped the change, of what was written instead (its changed places: it is no append of the content
 * any more); nothing for bytes that are not text.
 */
function writtenSnippet(
  oldText: string | null,
  newText: string,
  mode: WriteMode,
  written: { lines: LineDiff; shaped: { text: string | undefined } | undefined; budgetMs: number },
): LineSnippet {
  const { shaped } = written;
  if (shaped === undefined) return writeSnippet(oldText, newText, mode, written.lines);
  if (shaped.text === undefined) return { output: '' };
  const lines = new LineDiff(oldText ?? '', shaped.text, written.budgetMs);
  return writeSnippet(oldText, shaped.text, 'overwrite', lines);
}

/** Options of {@link WriteFile}: none, so that every tool is built the same way, `new Tool(runtime, options)`. */
export type WriteFileOptions = Record<string, never>;

/**
 * WriteFile (docs/write-file.md): creates, overwrites or appends to a text file, with approval, read-before-write, parent
 * directories created, the existing file's encoding, line endings and mode kept, and an atomic write.
 */
export class WriteFile extends CallableTool<typeof WriteFileParams, WriteFileBrief> {
  readonly name = 'WriteFile';
  readonly description: string;
  readonly params = WriteFileParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = WriteFileBriefs.failed;
  override readonly access = 'edit';
  protected override readonly pathParameters = ['path'];

  /** Creates the tool for one runtime (its workspace, approval, read state and history). WriteFile has no options. */
  constructor(
    private readonly runtime: ToolRuntime,
    _options: WriteFileOptions = {},
  ) {
    super(runtime);
    this.description = describeWriteFile(runtime.readBeforeWrite);
  }

  /** Observers' sections are collected only when the runtime has observers as the call starts. */
  protected override collectsChangeSections(): boolean {
    return this.runtime.changeObservers.size > 0;
  }

  protected override failureMessage(params: WriteFileParams, error: string): string {
    return writeFailedMessage(params.path, error);
  }

  protected async execute(
    params: WriteFileParams,
    options: { signal?: AbortSignal },
  ): Promise<ToolReturnValue<WriteFileBrief>> {
    const runtime = this.runtime;
    const resolved = await runtime.paths.resolveFile(params.path, 'write');
    if (!resolved.ok) return resolved.error;
    const target = resolved.path;

    // Read once, as a regular file or not at all: the path may become a FIFO at any moment. An overwrite judged by
    // the read state reads with the stamp of those bytes, so the file is hashed once for the whole write; an append
    // needs no hash at all.
    const judged = params.mode === 'overwrite' && runtime.readBeforeWrite;
    const { fs } = runtime;
    const current = judged ? await readStampedFile(fs, target.real) : await readRegularFile(fs, target.real);
    if (current === 'not-a-file') return notAFileError(params.path);
    const oldBytes = current === 'missing' ? null : current.bytes;
    const oldStamp = typeof current !== 'string' && 'stamp' in current ? current.stamp : undefined;
    const exists = oldBytes !== null;
    // An existing sensitive file is refused before its bytes are looked at, so no answer (size, encoding,
    // "unchanged") depends on what it holds; a new one holds nothing yet and may be created
    // (docs/paths.md#sensitive-files).
    if (exists && (await runtime.paths.isSensitive(target))) return sensitiveEditError(params.path);
    // A stamp is there exactly when an existing file is overwritten with read-before-write on.
    const checkReadState = oldStamp !== undefined;
    if (checkReadState) {
      const status = runtime.fileState.checkStamp(target.real, oldStamp);
      if (status !== 'ok') return readStateError(params.path, status);
    }
    let createDirectories: string[] = [];
    try {
      if (!exists) createDirectories = await missingDirectories(fs, target.real);
    } catch (error) {
      if (!(error instanceof PathThroughFileError)) throw error;
      return pathThroughFileError(params.path, error.levelsUp, fs.platform);
    }

    let composed: ComposedContent;
    if (oldBytes !== null) {
      const decoded = decodeText(oldBytes);
      if (!decoded.ok) {
        return unsupportedEncodingError(params.path);
      }
      composed = composeExisting(decoded.decoded, oldBytes, params.content, params.mode);
    } else {
      composed = composeNewFile(params.content);
    }
    // The approval shows the diff, and the snippet the changed lines: one line search serves both.
    const lines = new LineDiff(composed.oldText, composed.newText, runtime.diffBudgetMs);
    if (oldBytes !== null && params.mode === 'overwrite' && removesLines(lines)) {
      // A lazy overwrite (`// ... rest unchanged ...` for the file's real lines) would delete the user's code.
      // Only the lines between those the texts share at both ends can be new to the file.
      const { newMiddle } = lines.shared;
      const elided = introducedElision(composed.oldText, composed.newText, composed.oldText, newMiddle);
      if (elided !== undefined) return elidedContentError(params.path, elided);
    }
    const outcome = await applyFileChange(
      runtime,
      {
        sender: this.name,
        verb: 'Write',
        path: target,
        oldBytes,
        oldStamp,
        ...composed,
        lines,
        appends: params.mode === 'append',
        createDirectories,
        checkReadState,
      },
      options.signal,
    );
    if (outcome.kind === 'refused') return outcome.result;
    if (outcome.kind === 'unchanged') {
      const bytes = oldBytes?.length ?? 0;
      return toolOk({
        message: `File unchanged: the content is identical to the current file. Current size: ${bytes} bytes.`,
        extras: { created: false, bytes },
      });
    }

    recordSeenText(runtime, target.real, outcome.newBytes, outcome.newHash);
    const verb = params.mode === 'append' ? 'appended to' : 'overwritten';
    let message = `File successfully ${verb}. Current size: ${outcome.bytes} bytes.`;
    if (outcome.createdDirectories.length > 0) {
      const realWorkDir = await realPathAllowMissing(fs, runtime.workDir);
      const list = outcome.createdDirectories.map((directory) =>
        shownPath(displayDirectory(directory, realWorkDir), LIST_SEPARATORS),
      );
      message += ` Created directories: ${list.join(', ')}.`;
    }
    // An append that landed after what the file gained meanwhile shows the end of the file it was written to.
    const texts = outcome.landed?.view.lines ?? lines;
    const snippet = writtenSnippet(oldBytes === null ? null : texts.oldText, texts.newText, params.mode, {
      lines: texts,
      shaped: outcome.shaped,
      budgetMs: runtime.diffBudgetMs,
    });
    if (snippet.unshown) message += snippetCutSentence(snippet.unshown);
    message = withAnswerNote(message, outcome.note);
    return toolOk({
      output: snippet.output,
      message,
      display: outcome.display,
      extras: { created: outcome.created, bytes: outcome.bytes },
    });
  }
}
