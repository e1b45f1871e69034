import { promises as fs } from 'node:fs';
import { it } from '@kimi-tools/test-kit';
import { describe, expect } from 'vitest';
import type { OpenFile } from '../fs/file-system.js';
import { yoloApproval } from '../approval/approval.js';
import { Briefs } from '../errors.js';
import type { ToolRuntime } from '../runtime/runtime.js';
import { FileHistory } from '../state/file-history.js';
import { stampOf } from '../state/file-stamp.js';
import { applyStreamedChange, type StreamedFileChange } from './apply-streamed-change.js';
import { localFileSystem } from '../fs/local-file-system.js';

/** A change that writes `text`, running `during` once the copy has started (a writer that ignores the lock). */
async function change(
  runtime: ToolRuntime,
  input: string,
  text: string,
  during?: () => Promise<void>,
): Promise<StreamedFileChange> {
  const resolved = await runtime.paths.resolveFile(input, 'edit');
  if (!resolved.ok) throw new Error(resolved.error.message);
  const stamp = await stampOf(localFileSystem, resolved.path.real);
  if (typeof stamp === 'string') throw new Error(stamp);
  const data = Buffer.from(text);
  return {
    sender: 'StrReplaceFile',
    verb: 'Edit',
    path: resolved.path,
    oldStamp: stamp,
    display: [],
    newSize: data.length,
    async writeTo(_source: OpenFile, target: OpenFile) {
      await target.write(data, 0, data.length, 0);
      await during?.();
    },
    checkReadState: false,
  };
}

describe('applyStreamedChange', () => {
  it('writes the new content and saves the old one in the history', async ({ workspace }) => {
    const history = new FileHistory();
    const runtime = workspace.runtime({ approval: yoloApproval(), history });
    const file = await workspace.write('a.txt', 'old content');
    const outcome = await applyStreamedChange(runtime, await change(runtime, 'a.txt', 'new content'));
    expect(outcome.kind).toBe('written');
    expect(await fs.readFile(file, 'utf8')).toBe('new content');
    expect(history.list(file)).toHaveLength(1);
  });

  it('refuses with File modified when the file changes while it is copied, and keeps that change', async ({
    workspace,
  }) => {
    const runtime = workspace.runtime({ approval: yoloApproval() });
    const file = await workspace.write('a.txt', 'old content');
    const outcome = await applyStreamedChange(
      runtime,
      await change(runtime, 'a.txt', 'new content', () => fs.writeFile(file, 'OLD content')),
    );
    expect(outcome).toMatchObject({ kind: 'refused', result: { isError: true, brief: Briefs.fileModified } });
    expect(await fs.readFile(file, 'utf8')).toBe('OLD content');
  });

  it('refuses with File modified when another program saves the file by rename while it is copied', async ({
    workspace,
  }) => {
    const runtime = workspace.runtime({ approval: yoloApproval() });
    const file = await workspace.write('a.txt', 'old content');
    // An editor's or git's save: a new file renamed over the old one, which the copy still reads.
    const saveByRename = async () => {
      await fs.writeFile(`${file}.saving`, 'saved by the user');
      await fs.rename(`${file}.saving`, file);
    };
    const outcome = await applyStreamedChange(
      runtime,
      await change(runtime, 'a.txt', 'new content', saveByRename),
    );
    expect(outcome).toMatchObject({ kind: 'refused', result: { isError: true, brief: Briefs.fileModified } });
    expect(await fs.readFile(file, 'utf8')).toBe('saved by the user');
  });
});
