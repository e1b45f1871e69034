import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { toolOk, toolError, type ToolReturnValue } from '../result/tool-result.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { CallableTool } from '../tool/callable-tool.js';
import { appendThroughChange } from '../write/__fixtures__/append-change.js';
import type { AppliedFileChange, FileChangeObserver } from './change-observer.js';
import { RUNTIME_CLOSED_MESSAGE } from './change-observers.js';

const params = z.object({ path: z.string(), addition: z.string(), fail: z.boolean().optional() });

/** A contributed tool that knows nothing of observers: it appends through applyFileChange and words its result. */
class AppendTool extends CallableTool<typeof params> {
  readonly name = 'Append';
  readonly description = 'Appends text.';
  readonly params = params;
  protected readonly failureBrief = 'Failed to append';
  constructor(private readonly runtime: ToolRuntime) {
    super();
  }
  protected async execute(input: z.output<typeof params>): Promise<ToolReturnValue> {
    const outcome = await appendThroughChange(this.runtime, input.path, input.addition);
    if (input.fail) return toolError({ message: 'Appended, then failed.', brief: 'Failed to append' });
    return toolOk({ message: `Appended (${outcome.kind}).`, extras: { appended: true } });
  }
}

/** An observer that records what it was told and answers with a fixed section. */
function recorder(name: string, text: string | undefined, extras?: unknown) {
  const seen: AppliedFileChange[] = [];
  let closed = 0;
  const observer: FileChangeObserver = {
    name,
    changeApplied: (change) => {
      seen.push(change);
      return text === undefined && extras === undefined ? undefined : { text, extras };
    },
    close: () => {
      closed += 1;
    },
  };
  return { observer, seen, closed: () => closed };
}

describe('file change observers', () => {
  it('a contributed tool gets each section after its message, as a display block and under extras', async ({
    workspace,
    runtime,
  }) => {
    await workspace.write('a.txt', 'one\n');
    const first = recorder('diagnostics', 'Diagnostics: clean.', { status: 'clean' });
    const second = recorder('formatter', 'Formatted.');
    runtime.changeObservers.add(first.observer);
    runtime.changeObservers.add(second.observer);

    const result = await new AppendTool(runtime).call({ path: 'a.txt', addition: 'two\n' });

    expect(result.message).toBe('Appended (written).\n\nDiagnostics: clean.\n\nFormatted.');
    expect(result.display).toEqual([
      { type: 'section', source: 'diagnostics', text: 'Diagnostics: clean.' },
      { type: 'section', source: 'formatter', text: 'Formatted.' },
    ]);
    expect(result.extras).toEqual({ appended: true, diagnostics: { status: 'clean' } });
    expect(first.seen).toHaveLength(1);
    const change = first.seen[0]!;
    expect(change.sender).toBe('test');
    expect(change.path.real).toBe(workspace.at('a.txt'));
    expect(Buffer.from(change.oldBytes!).toString()).toBe('one\n');
    expect(Buffer.from(change.newBytes).toString()).toBe('one\ntwo\n');
    expect(second.seen).toHaveLength(1);
  });

  it('a change that writes nothing tells no observer', async ({ workspace, runtime }) => {
    await workspace.write('a.txt', 'one\n');
    const watch = recorder('watcher', 'changed');
    runtime.changeObservers.add(watch.observer);
    const result = await new AppendTool(runtime).call({ path: 'a.txt', addition: '' });
    expect(result.message).toBe('Appended (unchanged).');
    expect(result.display).toEqual([]);
    expect(watch.seen).toEqual([]);
  });

  it('an observer that throws adds nothing and the write stands', async ({ workspace, runtime }) => {
    await workspace.write('a.txt', 'one\n');
    runtime.changeObservers.add({
      name: 'broken',
      changeApplied: () => {
        throw new Error('observer bug');
      },
    });
    const after = recorder('after', 'still told');
    runtime.changeObservers.add(after.observer);
    const result = await new AppendTool(runtime).call({ path: 'a.txt', addition: 'two\n' });
    expect(result.isError).toBe(false);
    expect(result.message).toBe('Appended (written).\n\nstill told');
    expect(await workspace.bytes('a.txt')).toEqual([...Buffer.from('one\ntwo\n')]);
  });

  it('an error result that follows a write still carries the sections', async ({ workspace, runtime }) => {
    await workspace.write('a.txt', 'one\n');
    runtime.changeObservers.add(recorder('diagnostics', 'new problems').observer);
    const result = await new AppendTool(runtime).call({ path: 'a.txt', addition: 'x', fail: true });
    expect(result.isError).toBe(true);
    expect(result.message).toBe('Appended, then failed.\n\nnew problems');
  });

  it('concurrent calls on one runtime each get only their own sections', async ({ workspace, runtime }) => {
    await workspace.write('a.txt', 'a\n');
    await workspace.write('b.txt', 'b\n');
    runtime.changeObservers.add({
      name: 'echo',
      changeApplied: async (change) => {
        // The call on a.txt waits, so the call on b.txt reports in between.
        if (change.path.real.endsWith('a.txt')) await new Promise((resolve) => setTimeout(resolve, 30));
        return { text: `saw ${Buffer.from(change.newBytes).toString().trim()}` };
      },
    });
    const tool = new AppendTool(runtime);
    const [a, b] = await Promise.all([
      tool.call({ path: 'a.txt', addition: 'A\n' }),
      tool.call({ path: 'b.txt', addition: 'B\n' }),
    ]);
    expect(a.message).toBe('Appended (written).\n\nsaw a\nA');
    expect(b.message).toBe('Appended (written).\n\nsaw b\nB');
  });

  it('a removed observer is told nothing more', async ({ workspace, runtime }) => {
    await workspace.write('a.txt', 'one\n');
    const watch = recorder('watcher', 'changed');
    const remove = runtime.changeObservers.add(watch.observer);
    remove();
    const result = await new AppendTool(runtime).call({ path: 'a.txt', addition: 'two\n' });
    expect(result.message).toBe('Appended (written).');
    expect(watch.seen).toEqual([]);
  });

  it('runtime.close() closes every observer once, even when one fails, and refuses new ones', async ({
    runtime,
  }) => {
    const first = recorder('first', undefined);
    const second = recorder('second', undefined);
    runtime.changeObservers.add(first.observer);
    runtime.changeObservers.add({
      name: 'failing',
      changeApplied: () => undefined,
      close: () => Promise.reject(new Error('cannot stop')),
    });
    runtime.changeObservers.add(second.observer);
    await Promise.all([runtime.close(), runtime.close()]);
    await runtime.close();
    expect([first.closed(), second.closed()]).toEqual([1, 1]);
    expect(runtime.changeObservers.size).toBe(0);
    expect(() => runtime.changeObservers.add(recorder('late', undefined).observer)).toThrow(
      RUNTIME_CLOSED_MESSAGE,
    );
  });
});
