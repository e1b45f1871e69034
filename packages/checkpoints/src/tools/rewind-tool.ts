import {
  CallableTool,
  FileActions,
  toolOk,
  type CallOptions,
  type ToolReturnValue,
  type ToolRuntime,
} from '@kimi-tools/core';
import {
  askApproval,
  Briefs,
  hiddenFromListing,
  readShownPath,
  realPathAllowMissing,
  toolRejected,
  type ApprovalOutcome,
} from '@kimi-tools/core/toolkit';
import { checkpointsOf, CheckpointNotFoundError, PathOutsideWorkspaceError } from '../checkpoints.js';
import type { LeftAlone, RewindPreview, RewindResult } from '../rewind/rewind-types.js';
import { REWIND_DESCRIPTION } from './description.js';
import {
  checkpointNotFoundError,
  files,
  leftAloneLine,
  mergedLine,
  pathOutsideError,
  protectedLine,
  restoredLine,
  shown,
  rewindFailedError,
  userChangesError,
  workspaceChangedError,
  type CheckpointBrief,
  type NamedLeftAlone,
} from './messages.js';
import { RewindParams } from './params.js';
import { TOOL_ZOD } from './tool-zod.js';

/** `extras` of a Rewind that wrote: what it did, as the API returns it. */
export type RewindExtras = Extract<RewindResult, { kind: 'rewound' | 'unchanged' }>;

/** The approval's description: `Rewind 2 files to checkpoint 3: a.ts (modified), b.ts (created)`. */
function approvalDescription(preview: RewindPreview): string {
  const parts = [
    ...preview.restore.map((change) =>
      change.change === 'renamed'
        ? `${shown(change.from ?? '')} -> ${shown(change.path)} (renamed)`
        : `${shown(change.path)} (${change.change})`,
    ),
    ...preview.merge.map((path) => `${shown(path)} (merge)`),
  ];
  return `Rewind ${files(parts.length)} to checkpoint ${preview.checkpoint.id}: ${parts.join(', ')}`;
}

/**
 * Rewind (docs/checkpoints.md): takes the workspace, or some paths of it, back to a checkpoint, after one approval
 * that shows the diff of every file it changes. Files the user changed after the agent are never overwritten: the
 * model may keep them or merge them, never take the checkpoint's version over them (only a host can).
 */
export class Rewind extends CallableTool<typeof RewindParams, CheckpointBrief> {
  readonly name = 'Rewind';
  readonly description = REWIND_DESCRIPTION;
  readonly params = RewindParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = Briefs.toolFailed;
  override readonly access = 'edit';

  /** Creates the tool for one runtime. */
  constructor(private readonly runtime: ToolRuntime) {
    super(runtime);
  }

  protected async execute(
    params: RewindParams,
    options: CallOptions,
  ): Promise<ToolReturnValue<CheckpointBrief>> {
    let refusal: Extract<ApprovalOutcome, { approved: false }>['result'] | undefined;
    let result: RewindResult;
    try {
      result = await checkpointsOf(this.runtime).rewind(params.checkpoint, {
        // Paths may come in the form the results show them in.
        ...(params.paths ? { paths: params.paths.map(readShownPath) } : {}),
        ...(params.user_changes ? { resolve: () => params.user_changes } : {}),
        protect: await this.policyProtects(),
        approve: async (preview) => {
          const approval = await askApproval(
            this.runtime,
            {
              sender: this.name,
              action: FileActions.EDIT,
              description: approvalDescription(preview),
              display: preview.display,
              path: `${this.runtime.workDir}/${preview.restore[0]?.path ?? preview.merge[0]}`,
            },
            await this.approvalTargets(preview),
            options.signal,
          );
          if (!approval.approved) refusal = approval.result;
          options.signal?.throwIfAborted();
          return approval.approved;
        },
      });
    } catch (error) {
      if (error instanceof CheckpointNotFoundError) return checkpointNotFoundError(error.id);
      if (error instanceof PathOutsideWorkspaceError) return pathOutsideError(error.path);
      throw error;
    }
    switch (result.kind) {
      case 'refused':
        return refusal ?? toolRejected();
      case 'blocked':
        return userChangesError(result.files);
      case 'changed':
        return workspaceChangedError(result.paths);
      case 'failed':
        return rewindFailedError(result.message, result.unrestored);
      case 'unchanged': {
        const left = leftAloneLines(result.leftAlone);
        const tail = left.length > 0 ? `\nLeft alone:\n${left.join('\n')}` : '';
        return toolOk({
          message: `Nothing to rewind: the files already match checkpoint ${params.checkpoint}.${tail}`,
          extras: { ...result, leftAlone: named(result.leftAlone) } satisfies RewindExtras,
        });
      }
      case 'rewound':
        return toolOk({
          message: rewoundText(params.checkpoint, result),
          extras: { ...result, leftAlone: named(result.leftAlone) } satisfies RewindExtras,
        });
    }
  }

  /**
   * What the rewind leaves alone for the workspace's path policy (docs/paths.md), as every tool refuses it: a path the
   * deny globs refuse, and a sensitive file that is there (WriteFile may create one too: it holds nothing to leak).
   */
  private async policyProtects(): Promise<(path: string, exists: boolean) => Promise<boolean>> {
    const denied = await hiddenFromListing(this.runtime, undefined);
    // Checkpoint paths are relative to the real work dir, joined with `/` as the checkpoints join them.
    const root = await this.runtime.fs.realpath(this.runtime.workDir);
    return async (path, exists) =>
      denied?.(`${root}/${path}`) === true ||
      (exists && (await this.runtime.paths.isSensitive(`${root}/${path}`)));
  }

  /** Every file the rewind changes (both names of a rename), for the permission rules: real path, and as shown. */
  private approvalTargets(preview: RewindPreview) {
    const files = [
      ...preview.restore.flatMap((change) =>
        change.change === 'renamed' && change.from !== undefined ? [change.from, change.path] : [change.path],
      ),
      ...preview.merge,
    ];
    return Promise.all(
      files.map(async (file) => ({
        real: await realPathAllowMissing(this.runtime.fs, `${this.runtime.workDir}/${file}`),
        input: file,
      })),
    );
  }
}

/** The message of a rewind that wrote: what changed, what was left alone and why, and how to undo it. */
function rewoundText(id: string, result: Extract<RewindResult, { kind: 'rewound' }>): string {
  const lines = [
    `Rewound to checkpoint ${id}: ${files(result.restored.length + result.merged.length)} changed.`,
  ];
  lines.push(...result.restored.map(restoredLine), ...result.merged.map(mergedLine));
  const left = leftAloneLines(result.leftAlone);
  if (left.length > 0) lines.push('Left alone:', ...left);
  lines.push(
    `Checkpoint ${result.before} holds the files as they were before this rewind: rewind to it to undo this one.`,
  );
  return lines.join('\n');
}

/** The files left alone that a result may name: those the workspace policy protects are only counted. */
function named(leftAlone: readonly LeftAlone[]): NamedLeftAlone[] {
  return leftAlone.filter((file): file is NamedLeftAlone => file.reason !== 'protected');
}

/** The lines under `Left alone:`: one per named file, then the count of the protected ones. */
function leftAloneLines(leftAlone: readonly LeftAlone[]): string[] {
  const lines = named(leftAlone).map(leftAloneLine);
  const hidden = leftAlone.length - lines.length;
  if (hidden > 0) lines.push(protectedLine(hidden));
  return lines;
}
