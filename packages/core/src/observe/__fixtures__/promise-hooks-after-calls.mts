// Tool calls in a fresh process, for call-sections.test.ts. Runs the steps named by `argv[3..]` in the work dir
// `argv[2]` (which holds `a.txt`) and prints, as JSON, after each step its result's message and whether Node tracks
// promises by then: a promise continuation runs under async id 0 until something (an AsyncLocalStorage) installs
// the promise hooks.
import { executionAsyncId } from 'node:async_hooks';
import { z } from 'zod';
import { yoloApproval } from '../../approval/approval.js';
import { toolOk, type ToolReturnValue } from '../../result/tool-result.js';
import { createRuntime, type ToolRuntime } from '../../runtime/runtime.js';
import { CallableTool } from '../../tool/callable-tool.js';
import { appendThroughChange } from '../../write/__fixtures__/append-change.js';

const params = z.object({ path: z.string() });

/** A contributed tool that appends a line and says nothing of observers: the default applies. */
class AppendTool extends CallableTool<typeof params> {
  readonly name = 'Append';
  readonly description = 'Appends a line.';
  readonly params = params;
  protected readonly failureBrief = 'Failed to append';
  constructor(protected readonly runtime: ToolRuntime) {
    super();
  }
  protected async execute(input: z.output<typeof params>): Promise<ToolReturnValue> {
    const outcome = await appendThroughChange(this.runtime, input.path, 'more\n');
    return toolOk({ message: `Appended (${outcome.kind}).` });
  }
}

/** The same, written as core's writing tools are: sections collected only when the runtime has observers. */
class ObservedAppendTool extends AppendTool {
  protected override collectsChangeSections(): boolean {
    return this.runtime.changeObservers.size > 0;
  }
}

/** A tool that only reads, written as core's read-only tools are. */
class SizeTool extends CallableTool<typeof params> {
  readonly name = 'Size';
  readonly description = 'Says how large a file is.';
  readonly params = params;
  protected readonly failureBrief = 'Failed to measure';
  constructor(private readonly runtime: ToolRuntime) {
    super();
  }
  protected override collectsChangeSections(): boolean {
    return false;
  }
  protected async execute(input: z.output<typeof params>): Promise<ToolReturnValue> {
    const resolved = await this.runtime.paths.resolveFile(input.path, 'read');
    return toolOk({ message: resolved.ok ? 'Measured.' : resolved.error.message });
  }
}

async function promiseAsyncId(): Promise<number> {
  await null;
  return executionAsyncId();
}

const [workDir = '', ...steps] = process.argv.slice(2);
const runtime = createRuntime({ workDir, approval: yoloApproval() });
const calls: Record<string, () => Promise<ToolReturnValue>> = {
  read: () => new SizeTool(runtime).call({ path: 'a.txt' }),
  observedWrite: () => new ObservedAppendTool(runtime).call({ path: 'a.txt' }),
  contributedWrite: () => new AppendTool(runtime).call({ path: 'a.txt' }),
  addObserver: async () => {
    runtime.changeObservers.add({ name: 'watcher', changeApplied: () => ({ text: 'Seen.' }) });
    return toolOk({ message: 'Added.' });
  },
};
const report: unknown[] = [];
for (const step of steps) {
  const result = await calls[step]!();
  report.push({ step, message: result.message, promisesTracked: (await promiseAsyncId()) !== 0 });
}
process.stdout.write(JSON.stringify(report));
