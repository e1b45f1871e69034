import type { AsyncLocalStorage } from 'node:async_hooks';
import { nodeAsyncHooks } from '../fs/load-on-use.js';
import type { DisplayBlock, ToolReturnValue } from '../result/tool-result.js';
import type { NamedChangeSection } from './change-observers.js';

// The sections of the tool call running in this async context. The storage object is only a key, like a runtime
// slot: each call's sections live in the context `collectChangeSections` opens, so concurrent calls never mix. It is
// made by the first call that collects sections (a process of read-only tools never does), not at import; before
// that no call can be collecting.
let callSections: AsyncLocalStorage<NamedChangeSection[]> | undefined;

/** Hands sections to the tool call that applied the change; outside a call they have nowhere to go. */
export function addCallSections(sections: readonly NamedChangeSection[]): void {
  callSections?.getStore()?.push(...sections);
}

/** Runs one tool call and adds to its result the sections its applied changes produced. */
export async function collectChangeSections<Brief extends string>(
  run: () => Promise<ToolReturnValue<Brief>>,
): Promise<ToolReturnValue<Brief>> {
  const sections: NamedChangeSection[] = [];
  callSections ??= new (nodeAsyncHooks().AsyncLocalStorage)<NamedChangeSection[]>();
  const result = await callSections.run(sections, run);
  return sections.length === 0 ? result : withSections(result, sections);
}

/** `result` with each section's text after its message, its display block, and its extras under its source. */
function withSections<Brief extends string>(
  result: ToolReturnValue<Brief>,
  sections: readonly NamedChangeSection[],
): ToolReturnValue<Brief> {
  const texts = sections.flatMap((section) => (section.text ? [section.text] : []));
  const blocks: DisplayBlock[] = sections.flatMap((section) => {
    const text = section.display ?? section.text;
    return text ? [{ type: 'section' as const, source: section.source, text }] : [];
  });
  const extras: Record<string, unknown> = { ...result.extras };
  for (const section of sections) if (section.extras !== undefined) extras[section.source] = section.extras;
  const merged: ToolReturnValue<Brief> = {
    ...result,
    message: [result.message, ...texts].filter((text) => text !== '').join('\n\n'),
    display: [...result.display, ...blocks],
  };
  if (Object.keys(extras).length > 0) merged.extras = extras;
  return merged;
}
