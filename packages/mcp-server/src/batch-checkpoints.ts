import type { Checkpoints } from '@kimi-tools/checkpoints';
import type { ServableTool } from '@kimi-tools/mcp';

/** Options of {@link checkpointEachBatch}. */
export interface BatchCheckpointOptions {
  /** The tools whose calls change files: the first such call of a batch waits for the batch's checkpoint. */
  writers: readonly string[];
  /** How long no call may run before the next call starts a new batch, in milliseconds (default {@link BATCH_PAUSE_MS}). */
  pauseMs?: number;
  /** Told when a checkpoint fails; the batch's calls then run without one. */
  onError?: (error: unknown) => void;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/**
 * The pause that ends a batch by default. MCP gives no turn boundary, but a model's turn shows in the timing: the
 * calls of one response come back to back (a client runs them at once or one after the other, milliseconds apart),
 * while the next response waits for the model to read the results and write again, which takes longer than this.
 */
export const BATCH_PAUSE_MS = 500;

/**
 * `tools` with a checkpoint before each batch of calls that changes files. A batch is the calls that follow each
 * other with no pause: a call that starts while none runs, more than `pauseMs` after the last one ended, starts a new
 * one. The batch's first call of a `writers` tool takes a checkpoint (labelled `before {tool}`) and it, and every
 * later writer call of the batch, runs once that checkpoint is taken; calls that only read take none, and neither do
 * the checkpoint tools (a rewind records the states before and after itself).
 */
export function checkpointEachBatch(
  tools: readonly ServableTool[],
  checkpoints: Pick<Checkpoints, 'create'>,
  options: BatchCheckpointOptions,
): ServableTool[] {
  const { pauseMs = BATCH_PAUSE_MS, onError = () => undefined, now = () => performance.now() } = options;
  const writers = new Set(options.writers);
  let running = 0;
  let lastEnded = -Infinity;
  let checkpoint: Promise<void> | undefined;

  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    access: tool.access,
    async call(args, callOptions) {
      if (running === 0 && now() - lastEnded > pauseMs) checkpoint = undefined;
      running++;
      try {
        if (writers.has(tool.name)) {
          checkpoint ??= checkpoints.create(`before ${tool.name}`).then(() => undefined, onError);
          await checkpoint;
        }
        return await tool.call(args, callOptions);
      } finally {
        running--;
        lastEnded = now();
      }
    },
  }));
}
