import { constants as fsConstants, promises as fs } from 'node:fs';
import { CallableTool, toolOk, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';
import {
  Briefs,
  decodeText,
  detectFileKind,
  FILE_HEAD_BYTES,
  fileNotFoundError,
  notAFileError,
  positiveNumberOption,
  readFailedMessage,
  readHandleUpTo,
  statIfExists,
} from '@kimi-tools/core/toolkit';
import { describeNotebookEdit } from './description.js';
import { textTooLargeError, type NotebookEditBrief } from './errors.js';
import { basicFacts, factsMessage, formatFacts, textDetails } from './facts.js';
import { DEFAULT_MAX_BYTES } from './limits.js';
import { NotebookEditParams } from './params.js';

/** Options of {@link NotebookEdit}. */
export interface NotebookEditOptions {
  /** Largest text file decoded for its text details, in bytes (default {@link DEFAULT_MAX_BYTES}: 10 MiB). */
  maxBytes?: number;
}

/**
 * NotebookEdit (docs/notebook-edit.md): tells what a file is without showing its content — its kind and size, and for a text
 * file its encoding, byte order mark, line endings and number of lines. Read-only: it asks no approval and records
 * no read.
 */
export class NotebookEdit extends CallableTool<typeof NotebookEditParams, NotebookEditBrief> {
  readonly name = 'NotebookEdit';
  readonly description: string;
  readonly params = NotebookEditParams;
  protected readonly failureBrief = Briefs.readFailed;
  private readonly maxBytes: number;

  /** Creates the tool for one runtime (its workspace and path rules); throws when an option is invalid. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: NotebookEditOptions = {},
  ) {
    super();
    this.maxBytes = positiveNumberOption('NotebookEdit', 'maxBytes', options.maxBytes, DEFAULT_MAX_BYTES);
    this.description = describeNotebookEdit(this.maxBytes);
  }

  protected override failureMessage(params: NotebookEditParams, error: string): string {
    return readFailedMessage(params.path, error);
  }

  protected async execute(params: NotebookEditParams): Promise<ToolReturnValue<NotebookEditBrief>> {
    const shown = params.path;
    const resolution = await this.runtime.paths.resolveFile(params.path, 'read');
    if (!resolution.ok) return resolution.error;
    const target = resolution.path;
    const stats = await statIfExists(target.real);
    if (!stats) return fileNotFoundError(shown, target.absolute, this.runtime.workDir);
    if (!stats.isFile()) return notAFileError(shown);

    // O_NONBLOCK: should the path turn into a FIFO after the check above, opening it must not hang.
    const handle = await fs.open(target.real, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    try {
      const opened = await handle.stat();
      if (!opened.isFile()) return notAFileError(shown);
      const head = await readHandleUpTo(handle, Math.min(FILE_HEAD_BYTES, opened.size));
      let facts = basicFacts(await detectFileKind(target.real, head), opened.size);
      if (facts.kind === 'text' && params.text_details) {
        if (opened.size > this.maxBytes) return textTooLargeError(shown, opened.size, this.maxBytes);
        const decoded = decodeText(await readHandleUpTo(handle, this.maxBytes, opened.size));
        facts = decoded.ok ? { ...facts, ...textDetails(decoded.decoded) } : { ...facts, kind: 'binary' };
      }
      return toolOk({
        output: formatFacts(facts),
        message: factsMessage(shown, facts),
        extras: { ...facts },
      });
    } finally {
      await handle.close();
    }
  }
}
