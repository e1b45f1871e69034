import {
  CallableTool,
  toolError,
  toolOk,
  type CallOptions,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import type { OpenFile } from '@kimi-tools/core/fs';
import {
  Briefs,
  detectFileKind,
  detectTextEncoding,
  FILE_HEAD_BYTES,
  missingFileError,
  notAFileError,
  readFailedMessage,
  readHandleUpTo,
  sensitiveFileError,
  type FileStamp,
  type TextEncoding,
  openRegularFile,
  stampOfStats,
  statIfExists,
  hashBytes,
  recordSeenText,
  READ_TEXTS,
  READ_TEXT_MAX_BYTES,
  formatLines,
  isNotebookName,
} from '@kimi-tools/core/toolkit';
import { TOOL_ZOD } from './tool-zod.js';
import { describeReadFile } from './description.js';
import { directoryListingText, listDirectory } from './directory-listing.js';
import {
  mediaFileError,
  notReadableError,
  pdfFileError,
  unsizedTooLargeError,
  type ReadFileBrief,
} from './errors.js';
import { LINE_INDEXES } from './line-index.js';
import { ENCODING_SAMPLE_BYTES, WHOLE_SAMPLE_LIMIT_BYTES } from './limits.js';
import { readResultMessage } from './message.js';
import { ReadFileParams } from './params.js';
import { readForward, readTail, type LinesRead, type OpenTextFile } from './read-lines.js';
import { readUnsizedFile } from './unsized-file.js';
import { pageRenderedLines, renderNotebookFile } from './read-notebook.js';

/** Options of {@link ReadFile}: none, so that every tool is built the same way, `new Tool(runtime, options)`. */
export type ReadFileOptions = Record<string, never>;

/**
 * ReadFile (docs/read-file.md): reads a text file in any supported encoding with line numbers, forward from a line or back
 * from the end, within the line, line-length and byte limits. Files of any size are streamed; the runtime's line
 * index makes repeated deep reads of an unchanged file cheap. Records the read state for the write tools.
 */
export class ReadFile extends CallableTool<typeof ReadFileParams, ReadFileBrief> {
  readonly name = 'ReadFile';
  readonly description = describeReadFile();
  readonly params = ReadFileParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = Briefs.readFailed;
  override readonly access = 'read';
  protected override readonly pathParameters = ['path'];

  /** Creates the tool for one runtime (its workspace, read state and line indexes). ReadFile has no options. */
  constructor(
    private readonly runtime: ToolRuntime,
    _options: ReadFileOptions = {},
  ) {
    super(runtime);
  }

  /** Applies no change, so there are no observer sections to collect. */
  protected override collectsChangeSections(): boolean {
    return false;
  }

  protected override failureMessage(params: ReadFileParams, error: string): string {
    return readFailedMessage(params.path, error);
  }

  protected async execute(
    params: ReadFileParams,
    options: CallOptions,
  ): Promise<ToolReturnValue<ReadFileBrief>> {
    const shown = params.path;
    const resolution = await this.runtime.paths.resolveFile(params.path, 'read');
    if (!resolution.ok) return resolution.error;
    const target = resolution.path;
    if (await this.runtime.paths.isSensitive(target)) return sensitiveFileError(shown);
    const { fs } = this.runtime;
    // Regular or not is decided on the opened file: the path may become a FIFO at any moment.
    const file = await openRegularFile(fs, target.real);
    if (file === 'missing') return missingFileError(this.runtime, this, shown, target.absolute);
    if (file === 'not-a-file') return this.notAFile(shown, target.real);
    let { handle } = file;
    try {
      // The version read, from the open file and before any byte: a change made while reading makes the recorded
      // read state disagree with the file, never hide the change.
      const version = stampOfStats(file.stats);
      let size = version.size;
      // A file that reports no size is read from a snapshot of its content, made afresh at every read (its version,
      // of size 0, is one no line index is kept for: docs/read-file.md).
      if (size === 0) {
        const unsized = await readUnsizedFile(handle);
        if (unsized.kind === 'too-large') return unsizedTooLargeError(shown);
        if (unsized.kind === 'snapshot') ({ handle, size } = unsized);
      }
      const indexes = this.runtime.slot(LINE_INDEXES);
      // This very version was scanned as text already: its encoding is known, and so is that it is no media file.
      const indexedEncoding = indexes.get(target.real, version)?.encoding;
      const detected = indexedEncoding
        ? { ok: true as const, encoding: indexedEncoding }
        : await this.detectTextFile(handle, size, target.real, shown);
      if (!detected.ok) return detected.error;
      const encoding = detected.encoding;
      if (isNotebookName(target.real)) {
        const notebook = await renderNotebookFile(handle, size);
        if (notebook) return this.showNotebook(target.real, version, notebook, params);
      }

      let text: OpenTextFile = {
        handle,
        realPath: target.real,
        size,
        version,
        encoding,
        indexes,
        signal: options.signal,
      };
      const readLines = () =>
        params.line_offset > 0
          ? readForward(text, params.line_offset, params.n_lines)
          : readTail(text, -params.line_offset, params.n_lines);
      let read = await readLines();
      if (read.notUtf8) {
        // The sample looked like UTF-8, the whole file is not: decide on the whole file, as the write tools do.
        const whole = detectTextEncoding(await readHandleUpTo(handle, size), true);
        if (!whole) return notReadableError(shown);
        text = { ...text, encoding: whole, useIndex: false };
        read = await readLines();
      }
      if (read.binary) return notReadableError(shown);
      this.recordRead(text, read);
      await this.recordText(handle, size, read.hash, target.real);
      const start = params.line_offset > 0 ? params.line_offset : (read.lines[0]?.number ?? 0);
      return toolOk({
        output: formatLines(read.lines),
        message: readResultMessage(read, start, params.n_lines),
      });
    } finally {
      await handle.close();
    }
  }

  /** docs/read-file.md#notebooks: a page of the notebook's cells; reading all of them is a complete read. */
  private showNotebook(
    realPath: string,
    version: FileStamp,
    notebook: { lines: string[]; hash: string },
    params: ReadFileParams,
  ): ToolReturnValue<ReadFileBrief> {
    const read = pageRenderedLines(notebook.lines, params.line_offset, params.n_lines, notebook.hash);
    const complete = read.lines.length === read.totalLines && read.lines.every((line) => !line.truncated);
    this.runtime.fileState.recordRead(realPath, { ...version, hash: notebook.hash }, complete);
    const start = params.line_offset > 0 ? params.line_offset : (read.lines[0]?.number ?? 0);
    return toolOk({
      output: formatLines(read.lines),
      message: readResultMessage(read, start, params.n_lines),
    });
  }

  /** docs/read-file.md: a directory's error goes on with what it holds, so the model can pick its next path. */
  private async notAFile(shown: string, realPath: string): Promise<ToolReturnValue<ReadFileBrief>> {
    const error = notAFileError(shown);
    const stats = await statIfExists(this.runtime.fs, realPath);
    if (!stats?.isDirectory()) return error;
    const listing = await listDirectory(this.runtime, this, realPath);
    if (listing === undefined) return error;
    return toolError({ message: error.message + directoryListingText(listing), brief: error.brief });
  }

  /** The encoding of a text file, or the error a media, PDF or unreadable file gets. */
  private async detectTextFile(
    handle: OpenFile,
    size: number,
    realPath: string,
    shown: string,
  ): Promise<{ ok: true; encoding: TextEncoding } | { ok: false; error: ToolReturnValue<ReadFileBrief> }> {
    const head = await readHandleUpTo(handle, Math.min(FILE_HEAD_BYTES, size));
    const kind = await detectFileKind(realPath, head);
    if (kind.kind === 'image' || kind.kind === 'video') {
      return { ok: false, error: mediaFileError(shown, kind.kind) };
    }
    if (kind.kind === 'pdf') return { ok: false, error: pdfFileError(shown) };
    const encoding = kind.kind === 'text' ? await this.detectEncoding(handle, size, head) : null;
    return encoding ? { ok: true, encoding } : { ok: false, error: notReadableError(shown) };
  }

  private async detectEncoding(
    handle: OpenFile,
    size: number,
    head: Uint8Array,
  ): Promise<TextEncoding | null> {
    const whole = size <= WHOLE_SAMPLE_LIMIT_BYTES;
    const sampleSize = whole ? size : ENCODING_SAMPLE_BYTES;
    const sample =
      sampleSize <= head.length ? head.subarray(0, sampleSize) : await readHandleUpTo(handle, sampleSize);
    return detectTextEncoding(sample, whole && sample.length === size);
  }

  /**
   * docs/read-state.md#changed-since-the-read: keeps the text of a small file with the read state, so an edit can
   * be applied when only other lines change later. Only when the bytes are the ones the read hashed.
   */
  private async recordText(
    handle: OpenFile,
    size: number,
    hash: string | undefined,
    realPath: string,
  ): Promise<void> {
    const store = this.runtime.slot(READ_TEXTS);
    if (hash === undefined || size > READ_TEXT_MAX_BYTES) return store.forget(realPath);
    // A page after page read of one file keeps its text once.
    if (store.get(realPath)?.hash === hash) return;
    const bytes = await readHandleUpTo(handle, size + 1, size + 1);
    if (hashBytes(bytes) === hash) recordSeenText(this.runtime, realPath, bytes, hash);
    else store.forget(realPath);
  }

  /** docs/read-state.md: the read covers the whole file when every line was shown from line 1, none of them cut. */
  private recordRead(file: OpenTextFile, read: LinesRead): void {
    const complete =
      read.lines.length === read.totalLines &&
      (read.lines[0]?.number ?? 1) === 1 &&
      read.lines.every((line) => !line.truncated);
    this.runtime.fileState.recordRead(
      file.realPath,
      read.hash === undefined ? file.version : { ...file.version, hash: read.hash },
      complete,
    );
  }
}
