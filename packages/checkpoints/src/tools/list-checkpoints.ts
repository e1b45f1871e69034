import { CallableTool, toolOk, type ToolReturnValue, type ToolRuntime } from '@kimi-tools/core';
import { Briefs, hiddenFromListing } from '@kimi-tools/core/toolkit';
import { checkpointsOf } from '../checkpoints.js';
import type { Checkpoint } from '../rewind/rewind-types.js';
import { LIST_CHECKPOINTS_DESCRIPTION } from './description.js';
import { checkpointLine, type CheckpointBrief } from './messages.js';
import { ListCheckpointsParams } from './params.js';
import { TOOL_ZOD } from './tool-zod.js';

/** `extras` of ListCheckpoints: every checkpoint, oldest first. */
export type ListCheckpointsExtras = {
  checkpoints: Checkpoint[];
};

/**
 * ListCheckpoints (docs/checkpoints.md): the checkpoints of the runtime's workspace, oldest first, with the files
 * each one changed. It uses the runtime's checkpoints (`createCheckpoints`, or the defaults on first use).
 */
export class ListCheckpoints extends CallableTool<typeof ListCheckpointsParams, CheckpointBrief> {
  readonly name = 'ListCheckpoints';
  readonly description = LIST_CHECKPOINTS_DESCRIPTION;
  readonly params = ListCheckpointsParams;
  protected override readonly zod = TOOL_ZOD;
  protected readonly failureBrief = Briefs.toolFailed;
  override readonly access = 'read';

  /** Creates the tool for one runtime. */
  constructor(private readonly runtime: ToolRuntime) {
    super(runtime);
  }

  protected async execute(): Promise<ToolReturnValue<CheckpointBrief>> {
    const checkpoints = await this.visible(await checkpointsOf(this.runtime).list());
    const extras: ListCheckpointsExtras = { checkpoints };
    if (checkpoints.length === 0) return toolOk({ message: 'There are no checkpoints yet.', extras });
    const count = checkpoints.length === 1 ? '1 checkpoint' : `${checkpoints.length} checkpoints`;
    return toolOk({
      message: `${count}, oldest first:`,
      output: `${checkpoints.map(checkpointLine).join('\n')}\n`,
      extras,
    });
  }

  /**
   * The checkpoints without the files this tool may not name (docs/permissions.md#reads): those the runtime's deny
   * globs refuse or a `deny` rule hides from it, left out silently of the lines, the counts and the extras, as Glob
   * leaves them out; a move is left out when either of its names is hidden.
   */
  private async visible(checkpoints: Checkpoint[]): Promise<Checkpoint[]> {
    const hidden = await hiddenFromListing(this.runtime, this);
    if (hidden === undefined) return checkpoints;
    // Checkpoint paths are relative to the real work dir, joined with `/` as the checkpoints join them.
    const root = await this.runtime.fs.realpath(this.runtime.workDir);
    const shows = (path: string) => !hidden(`${root}/${path}`);
    return checkpoints.map((checkpoint) => ({
      ...checkpoint,
      files: checkpoint.files.filter(
        (file) => shows(file.path) && (file.from === undefined || shows(file.from)),
      ),
    }));
  }
}
