import path from 'node:path';
import {
  CallableTool,
  toolOk,
  type CallOptions,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import {
  applyFileChange,
  decodeText,
  encodeChange,
  missingFileError,
  notAFileError,
  parseNotebook,
  planNotebookEdit,
  positiveNumberOption,
  readStampedFile,
  readStateError,
  renderCell,
  sensitiveEditError,
  statIfExists,
  unsupportedEncodingError,
  type NotebookEditPlan,
  type ResolvedPath,
  isNotebookName,
  NOTEBOOK_VIEW_MAX_BYTES,
  shownCell,
  type Notebook,
  type NotebookCell,
  withAnswerNote,
  type ApplyOutcome,
  type DecodedText,
} from '@kimi-tools/core/toolkit';
import { TOOL_ZOD } from './tool-zod.js';
import { describeNotebookEdit } from './description.js';
import {
  editFailedMessage,
  invalidJsonError,
  missingCellTypeError,
  missingSourceError,
  NotebookEditBriefs,
  notANotebookError,
  notNotebookError,
  tooLargeError,
  unknownCellError,
  unsupportedFormatError,
  type NotebookEditBrief,
} from './errors.js';
import { DEFAULT_MAX_BYTES } from './limits.js';
import { deletedMessage, insertedMessage, replacedMessage, unchangedMessage } from './messages.js';
import { NotebookEditParams } from './params.js';

/** Options of {@link NotebookEdit}. */
export interface NotebookEditOptions {
  /** Largest notebook edited, in bytes (default {@link DEFAULT_MAX_BYTES}: 256 MiB). */
  maxBytes?: number;
}

/** `extras` of a successful NotebookEdit call. */
export interface NotebookEditExtras {
  /** The edit mode that ran. */
  mode: 'replace' | 'insert' | 'delete';
  /** The identifier of the edited, inserted or deleted cell, as ReadFile shows it. */
  cellId: string;
  /** Its type after the edit (delete: the deleted cell's). */
  cellType: string;
}

function isNotebookPath(target: ResolvedPath): boolean {
  return [target.real, target.absolute].some((name) => path.extname(name).toLowerCase() === '.ipynb');
}

/**
 * The edited cell as ReadFile shows it in the notebook after the edit, numbered as there, so the model can page or
 * edit on from it. The cells before it are the same before and after the edit, so the notebook is not parsed again.
 * ReadFile shows a notebook over its size limit, or whose real name is not `.ipynb`, as JSON text, where the cell has
 * no lines of its own: then the cell's lines are shown without numbers.
 */
function editedCellOutput(
  target: ResolvedPath,
  notebook: Notebook,
  mode: NotebookEditParams['edit_mode'],
  cell: NotebookCell,
  newSize: number,
): string {
  if (!isNotebookName(target.real) || newSize > NOTEBOOK_VIEW_MAX_BYTES) return renderCell(cell).join('\n');
  const cellsAfter = mode === 'insert' ? notebook.cells.length + 1 : notebook.cells.length;
  return shownCell(notebook.cells.slice(0, cell.index), cell, cell.index === cellsAfter - 1);
}

/**
 * The notebook's bytes when the user approved only some hunks of a replace and the cell's diff text (its header and
 * source, docs/notebook-edit.md#what-is-written) became `text`: the cell's source is the text after the header line,
 * and its type is the new one when the new header was approved. Written as the replace itself is, in the file's style.
 * (An insert or a delete is one hunk: it is never taken in part.)
 */
function cellViewBytes(
  notebook: Notebook,
  plan: Extract<NotebookEditPlan, { ok: true }>,
  cellType: NotebookEditParams['cell_type'],
  file: { decoded: DecodedText; oldBytes: Uint8Array },
  text: string,
): Uint8Array {
  const headerOf = (view: string) => view.slice(0, view.indexOf('\n') + 1);
  const header = headerOf(text);
  const again = planNotebookEdit(notebook, {
    mode: 'replace',
    cellId: plan.cell.identifier,
    source: text.slice(header.length),
    // The header names the type: with the new header, the cell takes the type the edit gave it.
    ...(header === headerOf(plan.after) && cellType !== undefined ? { cellType } : {}),
  });
  if (!again.ok) throw new Error(`cell ${plan.cell.identifier} could not be written again`);
  return encodeChange(file.decoded, file.oldBytes, again.replacements);
}

/**
 * The edited cell as the notebook that was written shows it, when the user's answer shaped the change (some hunks,
 * or their own content): found again by its identifier, or nothing when the written notebook no longer has it.
 */
function writtenCellOutput(
  target: ResolvedPath,
  cell: NotebookCell,
  outcome: Extract<ApplyOutcome, { kind: 'written' }>,
): string {
  const text = outcome.shaped?.text;
  const parsed = text === undefined ? undefined : parseNotebook(text);
  if (!parsed?.ok) return '';
  const written = parsed.notebook.cells.find((other) => other.identifier === cell.identifier);
  if (written === undefined) return '';
  return editedCellOutput(target, parsed.notebook, 'replace', written, outcome.bytes);
}

/**
 * NotebookEdit (docs/notebook-edit.md): replaces, inserts or deletes one cell of a Jupyter notebook, byte-faithfully —
 * only the edited cell's text changes, written in the file's own style — with the write tools' guarantees: path
 * policy, read-before-write, approval with a diff of the cell's source, lock, history and atomic write.
 */
export class NotebookEdit extends CallableTool<typeof NotebookEditParams, NotebookEditBrief> {
  readonly name = 'NotebookEdit';
  readonly description: string;
  readonly params = NotebookEditParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = NotebookEditBriefs.failed;
  override readonly access = 'edit';
  protected override readonly pathParameters = ['notebook_path'];
  private readonly maxBytes: number;

  /** Creates the tool for one runtime; throws when an option is invalid. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: NotebookEditOptions = {},
  ) {
    super(runtime);
    this.maxBytes = positiveNumberOption('NotebookEdit', 'maxBytes', options.maxBytes, DEFAULT_MAX_BYTES);
    this.description = describeNotebookEdit(this.maxBytes);
  }

  /** Observers' sections are collected only when the runtime has observers as the call starts. */
  protected override collectsChangeSections(): boolean {
    return this.runtime.changeObservers.size > 0;
  }

  protected override failureMessage(_params: NotebookEditParams, error: string): string {
    return editFailedMessage(error);
  }

  protected async execute(
    params: NotebookEditParams,
    options: CallOptions,
  ): Promise<ToolReturnValue<NotebookEditBrief>> {
    const shown = params.notebook_path;
    const resolved = await this.runtime.paths.resolveFile(shown, 'edit');
    if (!resolved.ok) return resolved.error;
    const target = resolved.path;
    // Before the notebook is even looked at, as StrReplaceFile does: no answer may depend on what a sensitive file
    // holds (docs/paths.md#sensitive-files).
    if (await this.runtime.paths.isSensitive(target)) return sensitiveEditError(shown);
    const { fs } = this.runtime;
    const stats = await statIfExists(fs, target.real);
    if (stats === undefined) return missingFileError(this.runtime, this, shown, target.absolute);
    if (!stats.isFile()) return notAFileError(shown);
    if (!isNotebookPath(target)) return notNotebookError(shown);
    if (stats.size > this.maxBytes) return tooLargeError(shown, stats.size, this.maxBytes);

    // Read once, with the stamp of exactly these bytes: the read-state checks here and in applyFileChange judge
    // them without reading or hashing the notebook again.
    const read = await readStampedFile(fs, target.real);
    if (read === 'missing') return missingFileError(this.runtime, this, shown, target.absolute);
    if (read === 'not-a-file') return notAFileError(shown);
    const { bytes: oldBytes, stamp: oldStamp } = read;
    const decoded = decodeText(oldBytes);
    if (!decoded.ok) return unsupportedEncodingError(shown);
    if (this.runtime.readBeforeWrite) {
      const status = this.runtime.fileState.checkStamp(target.real, oldStamp);
      if (status !== 'ok') return readStateError(shown, status);
    }

    const parsed = parseNotebook(decoded.decoded.text);
    if (!parsed.ok) {
      return parsed.reason === 'invalid-json'
        ? invalidJsonError(shown, parsed.error)
        : notANotebookError(shown, parsed.problem);
    }
    const { notebook } = parsed;
    const plan = planNotebookEdit(notebook, {
      mode: params.edit_mode,
      cellId: params.cell_id,
      source: params.new_source,
      cellType: params.cell_type,
    });
    if (!plan.ok) return this.refusal(shown, params, plan, `${notebook.nbformat}.${notebook.nbformatMinor}`);

    const extras: NotebookEditExtras = {
      mode: params.edit_mode,
      cellId: plan.cell.identifier,
      cellType: plan.cell.type,
    };
    const newBytes = encodeChange(decoded.decoded, oldBytes, plan.replacements);
    // A deleted cell has nothing to show. Rendered once the change stands, not for a refused one.
    const hidden = params.edit_mode === 'delete';
    const output = (): string =>
      hidden ? '' : editedCellOutput(target, notebook, params.edit_mode, plan.cell, newBytes.length);
    const outcome = await applyFileChange(
      this.runtime,
      {
        sender: this.name,
        verb: 'Edit',
        path: target,
        oldBytes,
        oldStamp,
        newBytes,
        oldText: plan.before,
        newText: plan.after,
        checkReadState: this.runtime.readBeforeWrite,
        bytesForText: (text) =>
          cellViewBytes(notebook, plan, params.cell_type, { decoded: decoded.decoded, oldBytes }, text),
      },
      options.signal,
    );
    switch (outcome.kind) {
      case 'refused':
        return outcome.result;
      case 'unchanged':
        return toolOk({ output: output(), message: unchangedMessage(plan.cell), extras: { ...extras } });
      case 'written':
        return toolOk({
          output:
            hidden || outcome.shaped === undefined ? output() : writtenCellOutput(target, plan.cell, outcome),
          message: withAnswerNote(this.successMessage(params, plan), outcome.note),
          display: outcome.display,
          extras: { ...extras },
        });
    }
  }

  private successMessage(params: NotebookEditParams, plan: Extract<NotebookEditPlan, { ok: true }>) {
    switch (params.edit_mode) {
      case 'replace':
        return replacedMessage(plan.cell);
      case 'insert':
        return insertedMessage(plan.cell, params.cell_id, plan.renamesOthers);
      case 'delete':
        return deletedMessage(plan.cell, plan.renamesOthers);
    }
  }

  private refusal(
    shown: string,
    params: NotebookEditParams,
    plan: Exclude<NotebookEditPlan, { ok: true }>,
    version: string,
  ): ToolReturnValue<NotebookEditBrief> {
    switch (plan.reason) {
      case 'unsupported-version':
        return unsupportedFormatError(shown, version);
      case 'unknown-cell':
        return unknownCellError(plan.cellId, params.edit_mode, plan.validIds);
      case 'missing-cell-type':
        return missingCellTypeError();
      case 'missing-source':
        return missingSourceError(params.edit_mode);
    }
  }
}
