import type { ToolRuntime } from '../runtime/runtime.js';
import type { AppliedFileChange } from './change-observer.js';
import { addCallSections } from './call-sections.js';

/** Tells the runtime's observers of a change that is on disk, and hands their sections to the running tool call. */
export async function reportAppliedChange(runtime: ToolRuntime, change: AppliedFileChange): Promise<void> {
  if (runtime.changeObservers.size === 0) return;
  addCallSections(await runtime.changeObservers.notify(change));
}
