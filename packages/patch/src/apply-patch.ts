import {
  CallableTool,
  toolOk,
  type CallOptions,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import {
  applyFileSet,
  Briefs,
  positiveNumberOption,
  readStateError,
  shownErrorText,
  toolFailedMessage,
  changedLines,
  decodeText,
  withAnswerNote,
  type FileSetEntry,
} from '@kimi-tools/core/toolkit';
import { changedRegions, type ChangedFile } from './changed-regions.js';
import { APPLY_PATCH_DESCRIPTION } from './description.js';
import { invalidPatchError, patchFailedError, patchTooLargeError, type ApplyPatchBrief } from './errors.js';
import { DEFAULT_MAX_CHUNKS, DEFAULT_MAX_FILES, DEFAULT_MAX_PATCH_BYTES } from './limits.js';
import { LEVEL_WORDS } from './match/line-levels.js';
import { ApplyPatchParams } from './params.js';
import { parsePatch } from './parse/parse-patch.js';
import type { PatchSection } from './parse/patch-types.js';
import { failuresText, NOTHING_CHANGED } from './plan/plan-messages.js';
import { planSections, type LooseChunk, type PlannedSection } from './plan/plan-sections.js';
import { shownName, shownPatchPath } from './shown-name.js';
import { TOOL_ZOD } from './tool-zod.js';

/** Options of {@link ApplyPatch}. */
export interface ApplyPatchOptions {
  /** Largest patch text taken, in bytes (default {@link DEFAULT_MAX_PATCH_BYTES}: 1 MiB). */
  maxBytes?: number;
  /** Most file sections in one patch (default {@link DEFAULT_MAX_FILES}). */
  maxFiles?: number;
  /** Most chunks in one patch (default {@link DEFAULT_MAX_CHUNKS}). */
  maxChunks?: number;
}

/** `extras` of a successful ApplyPatch call. */
export interface ApplyPatchExtras {
  /** Per section, in patch order: `A`, `M`, `D` or `R`, and its path(s) as the patch gives them. */
  files: { change: 'A' | 'M' | 'D' | 'R'; path: string; to?: string }[];
  /** Chunks found only at a looser level than exact. */
  looseChunks: LooseChunk[];
  /** Present when the patch was already applied: nothing was written. */
  alreadyApplied?: true;
}

/** The letter and words of one section in the result and the approval. */
function changeOf(section: PatchSection): { letter: 'A' | 'M' | 'D' | 'R'; word: string; shown: string } {
  const shown = shownPatchPath(section.path);
  if (section.kind === 'add') return { letter: 'A', word: 'add', shown };
  if (section.kind === 'delete') return { letter: 'D', word: 'delete', shown };
  if (section.moveTo !== undefined) {
    return { letter: 'R', word: 'move', shown: `${shown} -> ${shownPatchPath(section.moveTo)}` };
  }
  return { letter: 'M', word: 'edit', shown };
}

/**
 * ApplyPatch (docs/apply-patch.md): applies a patch (codex's envelope or a unified diff) to many files as one
 * change: every section checked and computed in memory first, one approval for all, then one commit that writes
 * every file or, on any failure, restores every file it changed.
 */
export class ApplyPatch extends CallableTool<typeof ApplyPatchParams, ApplyPatchBrief> {
  readonly name = 'ApplyPatch';
  readonly description = APPLY_PATCH_DESCRIPTION;
  readonly params = ApplyPatchParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = Briefs.toolFailed;
  override readonly access = 'edit';
  private readonly maxBytes: number;
  private readonly maxFiles: number;
  private readonly maxChunks: number;

  /** Creates the tool for one runtime; throws when an option is invalid. */
  constructor(
    private readonly runtime: ToolRuntime,
    options: ApplyPatchOptions = {},
  ) {
    super(runtime);
    this.maxBytes = positiveNumberOption('ApplyPatch', 'maxBytes', options.maxBytes, DEFAULT_MAX_PATCH_BYTES);
    this.maxFiles = positiveNumberOption('ApplyPatch', 'maxFiles', options.maxFiles, DEFAULT_MAX_FILES);
    this.maxChunks = positiveNumberOption('ApplyPatch', 'maxChunks', options.maxChunks, DEFAULT_MAX_CHUNKS);
  }

  /** Observers' sections are collected only when the runtime has observers as the call starts. */
  protected override collectsChangeSections(): boolean {
    return this.runtime.changeObservers.size > 0;
  }

  /** The error ends its sentence (a full stop added when it has none), then {@link NOTHING_CHANGED} follows. */
  protected override failureMessage(_params: ApplyPatchParams, error: string): string {
    const sentence = toolFailedMessage(this.name, error);
    return `${sentence}${sentence.endsWith('.') ? '' : '.'} ${NOTHING_CHANGED}`;
  }

  protected async execute(
    params: ApplyPatchParams,
    options: CallOptions,
  ): Promise<ToolReturnValue<ApplyPatchBrief>> {
    const size = Buffer.byteLength(params.patch);
    if (size > this.maxBytes) return patchTooLargeError('bytes', size, this.maxBytes);
    const parsed = parsePatch(params.patch);
    if (!parsed.ok) return invalidPatchError(parsed.reason);
    const { sections } = parsed;
    if (sections.length > this.maxFiles) return patchTooLargeError('files', sections.length, this.maxFiles);
    const chunks = sections.reduce(
      (total, section) => total + (section.kind === 'update' ? section.chunks.length : 0),
      0,
    );
    if (chunks > this.maxChunks) return patchTooLargeError('chunks', chunks, this.maxChunks);

    const files = sections.map((section) => {
      const change = changeOf(section);
      return {
        change: change.letter,
        path: section.path,
        ...(section.kind === 'update' && section.moveTo ? { to: section.moveTo } : {}),
      };
    });
    const plan = await planSections(this.runtime, sections, this);
    if (plan.kind === 'replayed') {
      return toolOk({
        message: `The patch is already applied: the files already hold every change it makes. ${NOTHING_CHANGED}`,
        extras: { files, looseChunks: [], alreadyApplied: true } satisfies ApplyPatchExtras,
      });
    }
    if (plan.kind === 'failed') return patchFailedError(failuresText(plan.failures));

    const described = sections.map((section) => `${changeOf(section).shown} (${changeOf(section).word})`);
    const count = sections.length === 1 ? '1 file' : `${sections.length} files`;
    const outcome = await applyFileSet(
      this.runtime,
      {
        sender: this.name,
        description: `Apply patch to ${count}: ${described.join(', ')}`,
        entries: plan.sections.map((planned) => planned.entry),
      },
      options.signal,
    );
    switch (outcome.kind) {
      case 'refused':
        return outcome.result;
      case 'modified':
        return {
          ...readStateError(outcome.inputs[0]!, 'modified'),
          message: failuresText(
            outcome.inputs.map(
              (input) => `${shownName(input)}: ${readStateError(input, 'modified').message}`,
            ),
          ),
        };
      case 'failed': {
        const unrestored = outcome.error.unrestored;
        const tail =
          unrestored.length === 0
            ? NOTHING_CHANGED
            : `These files could not be restored and may hold the new content: ${unrestored.map(shownName).join(', ')}.`;
        return patchFailedError(`Writing the patch failed: ${shownErrorText(outcome.error)}. ${tail}`);
      }
      case 'written': {
        // The sections as written: a file the user rejected whole is left out, one they shaped shows what was written.
        const written = plan.sections.flatMap((planned, index) => {
          const entry = outcome.entries[index];
          return entry ? [writtenSection(planned, entry, this.runtime.diffBudgetMs)] : [];
        });
        return toolOk({
          output: changedRegions(changedFiles(written)),
          message: withAnswerNote(
            successText(
              written.map((planned) => planned.section),
              plan.loose.filter((chunk) =>
                written.some((planned) => shownPatchPath(planned.section.path) === chunk.path),
              ),
            ),
            outcome.note,
          ),
          display: outcome.display,
          extras: { files, looseChunks: plan.loose } satisfies ApplyPatchExtras,
        });
      }
    }
  }
}

/**
 * A planned section as it was written: as planned, or, when the user's answer shaped its file, with what was written
 * and the changed lines of that (none for bytes that are not text).
 */
function writtenSection(planned: PlannedSection, entry: FileSetEntry, budgetMs: number): PlannedSection {
  if (entry === planned.entry) return planned;
  const isText = entry.newBytes !== null && decodeText(entry.newBytes).ok;
  const changes = isText ? changedLines(entry.oldText, entry.newText, budgetMs) : [];
  return {
    ...planned,
    entry,
    changedLines: changes.map((change) => ({ from: change.newFrom, count: change.newCount })),
  };
}

/** `Success. Updated the following files:` and one line per file, then the chunks that needed a looser match. */
function successText(sections: readonly PatchSection[], loose: readonly LooseChunk[]): string {
  const lines = sections.map((section) => `${changeOf(section).letter} ${changeOf(section).shown}`);
  const notes = loose.map(
    (chunk) => `Chunk ${chunk.chunk} of ${chunk.path} matched after normalising ${LEVEL_WORDS[chunk.level]}.`,
  );
  return ['Success. Updated the following files:', ...lines, ...notes].join('\n');
}

/** The added, edited and moved files whose changed lines the output shows, in patch order. */
function changedFiles(sections: readonly PlannedSection[]): ChangedFile[] {
  return sections
    .filter((planned) => planned.entry.newBytes !== null && planned.changedLines.length > 0)
    .map((planned) => ({
      name: shownPatchPath(planned.entry.to?.input ?? planned.entry.path.input),
      text: planned.entry.newText,
      spans: planned.changedLines,
    }));
}
